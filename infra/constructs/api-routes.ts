// The HTTP API's routes, in a stack of their own: one route per entry of lib/routes.ts, each integrated
// with its function, and the `$default` route to the fallback function so unknown paths and methods get
// problem+json 404/405; the `$default` stage with its throttles and access log; the custom domains'
// mappings to it. The API itself, its domains and its access log stay in the stage's main stack with the
// distribution that fronts them (gateway-api.ts), and so do the functions, each with the permission that
// lets this API invoke it: this stack names them by the ids and ARNs that stack outputs, read with
// Fn::GetStackOutput (infra/stack-output.ts), and holds nothing another stack refers to.
import { type Acknowledgment, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { Construct, type IConstruct } from 'constructs';
import { API_PREFIX, FALLBACK_FUNCTION, type Route, routeKeyOf, routes } from '../../lib/routes.ts';
import { stackValueFor } from '../stack-output.ts';
import type { Throttles } from '../stage.ts';
import { ACCESS_LOG_FORMAT, type GatewayApi } from './gateway-api.ts';

const ROUTE_AUTH_ACKNOWLEDGMENTS: Acknowledgment[] = [
  {
    id: 'AwsSolutions-APIG4',
    reason:
      'Authorization is done in-function by design: the Middy chain checks the edge origin token, the ' +
      'application key (x-service-auth) on every route and the bearer JWT on every route but POST ' +
      '/v1/auth/token (which issues it), so the local gateway and AWS enforce identical rules and answer ' +
      'with the same problem+json bodies.',
  },
];

const FALLBACK_REASON =
  'The $default route only reaches the fallback function, which answers 404/405 problem bodies computed ' +
  'from the route table; its role has no table or secret access, so there is nothing to authorize.';
const DEFAULT_ROUTE_ACKNOWLEDGMENTS: Acknowledgment[] = [
  { id: 'AwsSolutions-APIG4', reason: FALLBACK_REASON },
];

/** Route keys with limits tighter than the stage default, and what they get. */
function routeThrottles(throttle: Throttles): Map<string, apigw.ThrottleSettings> {
  const limits = new Map<string, apigw.ThrottleSettings>();
  for (const route of routes as readonly Route[]) {
    if (route.fn === 'auth' && route.operation === 'issueToken')
      limits.set(routeKeyOf(route), throttle.token);
    if (route.fn === 'sandbox') limits.set(routeKeyOf(route), throttle.sandbox);
  }
  limits.set('$default', throttle.unmatched);
  return limits;
}

/**
 * A Lambda proxy integration (payload 2.0) by the function's ARN. CDK's HttpLambdaIntegration would also
 * add an invoke permission per route, here, naming the function of the other stack; the function's own
 * stack grants this API instead (GatewayApi.permitInvoke).
 */
class FunctionIntegration extends apigw.HttpRouteIntegration {
  readonly #functionArn: string;

  constructor(id: string, functionArn: string) {
    super(id);
    this.#functionArn = functionArn;
  }

  override bind(): apigw.HttpRouteIntegrationConfig {
    return {
      type: apigw.HttpIntegrationType.AWS_PROXY,
      uri: this.#functionArn,
      payloadFormatVersion: apigw.PayloadFormatVersion.VERSION_2_0,
    };
  }
}

export interface ApiRoutesStackProps extends StackProps {
  stage: string;
  /** The API, its access log and its custom domains, of the stage's main stack. */
  api: GatewayApi;
  /** Each API function's ARN (lib/routes.ts names: `auth`, `assets`, `fallback`), of the main stack. */
  functionArns: ReadonlyMap<string, string>;
  throttle: Throttles;
}

export class ApiRoutesStack extends Stack {
  readonly stage: apigw.CfnStage;

  constructor(scope: Construct, id: string, props: ApiRoutesStackProps) {
    const { stage: stageName, api, functionArns, throttle, ...stackProps } = props;
    super(scope, id, stackProps);
    const ours = (value: string) =>
      stackValueFor(this, value, 'its routes, stage and mappings are the API’s');
    const routesOf = new Construct(this, 'Api');
    const httpApi = apigw.HttpApi.fromHttpApiAttributes(routesOf, 'HttpApi', {
      httpApiId: ours(api.api.apiId),
    });

    const integrations = new Map<string, FunctionIntegration>();
    const integrationFor = (fn: string) => {
      let integration = integrations.get(fn);
      if (!integration) {
        const functionArn = functionArns.get(fn);
        if (!functionArn) throw new Error(`No function "${fn}" for the HTTP API.`);
        integration = new FunctionIntegration(`${fn}-integration`, ours(functionArn));
        integrations.set(fn, integration);
      }
      return integration;
    };

    const served = new Map<string, IConstruct>();
    for (const route of routes as readonly Route[]) {
      const routeKey = apigw.HttpRouteKey.with(`${API_PREFIX}${route.path}`, apigw.HttpMethod[route.method]);
      if (routeKey.key !== routeKeyOf(route)) {
        throw new Error(`Route key ${routeKey.key} differs from routeKeyOf(): ${routeKeyOf(route)}`);
      }
      const created = new apigw.HttpRoute(routesOf, routeKey.key, {
        httpApi,
        routeKey,
        integration: integrationFor(route.fn),
      });
      Validations.of(created).acknowledge(...ROUTE_AUTH_ACKNOWLEDGMENTS);
      served.set(routeKey.key, created);
    }
    // Everything no route matches; the fallback function tells 404 from 405 using the same table.
    const defaultRoute = new apigw.HttpRoute(routesOf, 'DefaultRoute', {
      httpApi,
      routeKey: apigw.HttpRouteKey.DEFAULT,
      integration: integrationFor(FALLBACK_FUNCTION),
    });
    Validations.of(defaultRoute).acknowledge(...DEFAULT_ROUTE_ACKNOWLEDGMENTS);
    served.set('$default', defaultRoute);

    const accessLogsArn = ours(api.accessLogs.logGroupArn);
    const stage = new apigw.HttpStage(routesOf, 'DefaultStage', {
      httpApi,
      stageName: '$default',
      autoDeploy: true,
      // The limit of each route (HTTP APIs have no stage-wide cap; see Throttles in infra/stage.ts).
      throttle: throttle.route,
      accessLogSettings: {
        destination: { bind: () => ({ destinationArn: accessLogsArn }) },
        format: ACCESS_LOG_FORMAT,
      },
    });

    // Tighter limits for the token route, the sandbox helpers and `$default`, by route key. A key must
    // name a route that exists when the stage is written, hence the dependencies.
    this.stage = stage.node.defaultChild as apigw.CfnStage;
    const routeSettings: Record<string, { ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }> = {};
    for (const [routeKey, limits] of routeThrottles(throttle)) {
      const route = served.get(routeKey);
      if (!route) throw new Error(`No route ${routeKey} to throttle.`);
      this.stage.node.addDependency(route);
      routeSettings[routeKey] = {
        ThrottlingRateLimit: limits.rateLimit,
        ThrottlingBurstLimit: limits.burstLimit,
      };
    }
    this.stage.routeSettings = routeSettings;

    // Each custom domain (the main stack's, by its name) maps the whole API, paths unchanged.
    api.domainNames.forEach((domainName, index) => {
      const mapping = new apigw.CfnApiMapping(routesOf, `Mapping${index}`, {
        apiId: httpApi.apiId,
        domainName: ours(domainName),
        stage: stage.stageName,
      });
      mapping.node.addDependency(stage);
    });
  }
}
