// The HTTP API: one route per entry of lib/routes.ts, each integrated with its function, and the
// `$default` route to the fallback function so unknown paths and methods get problem+json 404/405.
// Clients reach it through CloudFront and its web ACL (edge.ts). With a custom domain (prod always),
// CloudFront's origin is a regional custom domain of the same names and the execute-api endpoint is
// switched off, so nothing sent to execute-api reaches a function or a route's throttle bucket; with
// mutual TLS (prod) the domain itself takes only CloudFront's client certificate. A disposable stage
// without a domain keeps execute-api, guarded by the origin token alone.
import { type Acknowledgment, type RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct, type IConstruct } from 'constructs';
import { API_PREFIX, FALLBACK_FUNCTION, type Route, routeKeyOf, routes } from '../../lib/routes.ts';
import { SERVICE_NAME, SynthRefusal, type Throttles } from '../stage.ts';
import { type ApiOrigin, certificateRegion, type EdgeDomain, truststoreLocation } from './edge.ts';

export interface GatewayApiProps {
  stage: string;
  /** API functions by name (`auth`, `assets`, `fallback`), as lib/routes.ts names them. */
  functions: ReadonlyMap<string, IFunction>;
  throttle: Throttles;
  logRetention: logs.RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The distribution's names: each gets a regional custom domain, and execute-api is switched off. */
  domain?: EdgeDomain | undefined;
}

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

export class GatewayApi extends Construct {
  readonly api: apigw.HttpApi;
  readonly stage: apigw.HttpStage;
  /** One JSON line per request (the format below): the 429 alarm counts from it. */
  readonly accessLogs: logs.LogGroup;
  /** Where CloudFront sends /v1/* (edge.ts). */
  readonly origin: ApiOrigin;

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
      // Behind a custom domain, the only way in is the domain CloudFront calls.
      disableExecuteApiEndpoint: props.domain !== undefined,
    });

    const served = new Map<string, IConstruct>();
    for (const route of routes as readonly Route[]) {
      const routeKey = apigw.HttpRouteKey.with(`${API_PREFIX}${route.path}`, apigw.HttpMethod[route.method]);
      if (routeKey.key !== routeKeyOf(route)) {
        throw new Error(`Route key ${routeKey.key} differs from routeKeyOf(): ${routeKeyOf(route)}`);
      }
      const created = new apigw.HttpRoute(this, routeKey.key, {
        httpApi: this.api,
        routeKey,
        integration: integrationFor(route.fn),
      });
      Validations.of(created).acknowledge(...ROUTE_AUTH_ACKNOWLEDGMENTS);
      served.set(routeKey.key, created);
    }
    // Created by HttpApi for defaultIntegration.
    const defaultRoute = this.api.node.findChild('DefaultRoute');
    Validations.of(defaultRoute).acknowledge(...DEFAULT_ROUTE_ACKNOWLEDGMENTS);
    served.set('$default', defaultRoute);

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      // The limit of each route (HTTP APIs have no stage-wide cap; see Throttles in infra/stage.ts).
      throttle: props.throttle.route,
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(this.accessLogs),
        // One JSON line per request; no headers or bodies (they carry credentials and tokens). Behind
        // CloudFront, `ip` is the edge's address: the client's is in the web ACL's log (edge-firewall.ts).
        // latencyMs is written as a number: the latency alarm's metric filter takes its value from it.
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
          }).replace('"$context.responseLatency"', '$context.responseLatency'),
        ),
      },
    });

    // Tighter limits for the token route, the sandbox helpers and `$default`, by route key. A key must
    // name a route that exists when the stage is written, hence the dependencies.
    const stage = this.stage.node.defaultChild as apigw.CfnStage;
    const routeSettings: Record<string, { ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }> = {};
    for (const [routeKey, limits] of routeThrottles(props.throttle)) {
      const route = served.get(routeKey);
      if (!route) throw new Error(`No route ${routeKey} to throttle.`);
      stage.node.addDependency(route);
      routeSettings[routeKey] = {
        ThrottlingRateLimit: limits.rateLimit,
        ThrottlingBurstLimit: limits.burstLimit,
      };
    }
    stage.routeSettings = routeSettings;

    const stack = Stack.of(this);
    this.origin = props.domain
      ? this.customDomains(props.domain)
      : {
          domainName: `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`,
          forwardHost: false,
        };
  }

  /**
   * A regional custom domain per name, mapped to the stage: CloudFront connects to the first one's target
   * and forwards the viewer's Host, which selects the domain of that name (SNI and Host).
   */
  private customDomains(domain: EdgeDomain): ApiOrigin {
    const region = Stack.of(this).region;
    const certificateIn = certificateRegion(domain.regionalCertificateArn);
    if (!Token.isUnresolved(region) && certificateIn !== region) {
      throw new SynthRefusal(
        `"regionalCertificateArn" must be an ACM certificate in the stage's region ${region}, not ${certificateIn}.`,
      );
    }
    const certificate = acm.Certificate.fromCertificateArn(
      this,
      'Certificate',
      domain.regionalCertificateArn,
    );
    // Mutual TLS: only CloudFront, presenting the client certificate the truststore's CA signed, completes
    // a handshake; anyone else calling the domain's target name is refused before a route or a bucket.
    const truststore = domain.originMtls && truststoreLocation(domain.originMtls.truststoreUri);
    const mtls = domain.originMtls &&
      truststore && {
        bucket: s3.Bucket.fromBucketName(this, 'Truststore', truststore.bucket),
        key: truststore.key,
        ...(domain.originMtls.truststoreVersion ? { version: domain.originMtls.truststoreVersion } : {}),
      };
    const targets = domain.names.map((name, index) => {
      const domainName = new apigw.DomainName(this, `Domain${index}`, {
        domainName: name,
        certificate,
        endpointType: apigw.EndpointType.REGIONAL,
        securityPolicy: apigw.SecurityPolicy.TLS_1_2,
        ...(mtls ? { mtls } : {}),
      });
      new apigw.ApiMapping(this, `Mapping${index}`, { api: this.api, domainName, stage: this.stage });
      return domainName.regionalDomainName;
    });
    return { domainName: targets[0] as string, forwardHost: true };
  }
}
