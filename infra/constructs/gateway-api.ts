// The HTTP API: one route per entry of lib/routes.ts, each integrated with its function, and the
// `$default` route to the fallback function so unknown paths and methods get problem+json 404/405.
import { type Acknowledgment, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { API_PREFIX, FALLBACK_FUNCTION, type Route, routeKeyOf, routes } from '../../lib/routes.ts';
import { SERVICE_NAME } from '../stage.ts';

export interface GatewayApiProps {
  stage: string;
  /** API functions by name (`auth`, `assets`, `fallback`), as lib/routes.ts names them. */
  functions: ReadonlyMap<string, IFunction>;
  throttle: apigw.ThrottleSettings;
  logRetention: logs.RetentionDays;
  removalPolicy: RemovalPolicy;
}

const ROUTE_AUTH_ACKNOWLEDGMENTS: Acknowledgment[] = [
  {
    id: 'AwsSolutions-APIG4',
    reason:
      'Authorization is done in-function by design: a Middy middleware checks the application key ' +
      '(x-service-auth) on every route and the bearer JWT on token routes, so the local gateway and AWS ' +
      'enforce identical rules and answer with the same problem+json bodies.',
  },
  {
    id: 'AwsSolutions-COG4',
    reason:
      'Clients are services, not Cognito users: tokens are issued by our own auth function (POST ' +
      '/v1/auth/token) and verified in-function against the JWKS secret.',
  },
];

const FALLBACK_REASON =
  'The $default route only reaches the fallback function, which answers 404/405 problem bodies computed ' +
  'from the route table; its role has no table or secret access, so there is nothing to authorize.';
const DEFAULT_ROUTE_ACKNOWLEDGMENTS: Acknowledgment[] = [
  { id: 'AwsSolutions-APIG4', reason: FALLBACK_REASON },
  { id: 'AwsSolutions-COG4', reason: FALLBACK_REASON },
];

export class GatewayApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;

  constructor(scope: Construct, id: string, props: GatewayApiProps) {
    super(scope, id);
    const integrations = new Map<string, HttpLambdaIntegration>();
    const integrationFor = (fn: string) => {
      let integration = integrations.get(fn);
      if (!integration) {
        const target = props.functions.get(fn);
        if (!target) throw new Error(`No function "${fn}" for the HTTP API.`);
        integration = new HttpLambdaIntegration(`${fn}-integration`, target);
        integrations.set(fn, integration);
      }
      return integration;
    };

    this.api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `${SERVICE_NAME}-${props.stage}`,
      description: `${SERVICE_NAME} ${props.stage}: routes under ${API_PREFIX}`,
      // Everything no route matches; the fallback function tells 404 from 405 using the same table.
      defaultIntegration: integrationFor(FALLBACK_FUNCTION),
      // Created below with throttling and access logs, which the implicit default stage cannot have.
      createDefaultStage: false,
    });

    for (const route of routes as readonly Route[]) {
      const routeKey = apigw.HttpRouteKey.with(`${API_PREFIX}${route.path}`, apigw.HttpMethod[route.method]);
      if (routeKey.key !== routeKeyOf(route)) {
        throw new Error(`Route key ${routeKey.key} differs from routeKeyOf(): ${routeKeyOf(route)}`);
      }
      const served = new apigw.HttpRoute(this, routeKey.key, {
        httpApi: this.api,
        routeKey,
        integration: integrationFor(route.fn),
      });
      Validations.of(served).acknowledge(...ROUTE_AUTH_ACKNOWLEDGMENTS);
    }
    // Created by HttpApi for defaultIntegration.
    const defaultRoute = this.api.node.findChild('DefaultRoute');
    Validations.of(defaultRoute).acknowledge(...DEFAULT_ROUTE_ACKNOWLEDGMENTS);

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(accessLogs),
        // One JSON line per request; no headers or bodies (they carry credentials and tokens).
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            requestTime: '$context.requestTime',
            ip: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationStatus: '$context.integrationStatus',
            integrationError: '$context.integrationErrorMessage',
            errorMessage: '$context.error.message',
          }),
        ),
      },
    });
  }

  /** The base URL clients use: the `$default` stage serves at the endpoint root, routes under /v1. */
  get versionedUrl(): string {
    return `${this.api.apiEndpoint}${API_PREFIX}`;
  }
}
