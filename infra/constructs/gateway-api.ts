// The HTTP API, its regional custom domains and its access log; its routes and stage are a stack of their
// own (api-routes.ts), which adds one route per entry of lib/routes.ts. Clients reach it through
// CloudFront and its web ACL (edge.ts). With a custom domain (prod always), CloudFront's origin is a
// regional custom domain of the same names and the execute-api endpoint is switched off, so nothing sent
// to execute-api reaches a function or a route's throttle bucket; with mutual TLS (prod) the domain
// itself takes only CloudFront's client certificate. A disposable stage without a domain keeps
// execute-api, guarded by the origin token alone. The API, its domains and the distribution stay in the
// stage's main stack, so splitting the routes out changed neither the API's id nor any name DNS points at.
import { type RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { API_PREFIX } from '../../lib/routes.ts';
import { SERVICE_NAME, SynthRefusal } from '../stage.ts';
import { type ApiOrigin, certificateRegion, type EdgeDomain, truststoreLocation } from './edge.ts';

export interface GatewayApiProps {
  stage: string;
  logRetention: logs.RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The distribution's names: each gets a regional custom domain, and execute-api is switched off. */
  domain?: EdgeDomain | undefined;
}

/**
 * One JSON line per request; no headers or bodies (they carry credentials and tokens). Behind CloudFront,
 * `ip` is the edge's address: the client's is in the web ACL's log (edge-firewall.ts). latencyMs is
 * written as a number: the latency alarm's metric filter takes its value from it.
 */
export const ACCESS_LOG_FORMAT = AccessLogFormat.custom(
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
);

export class GatewayApi extends Construct {
  readonly api: apigw.HttpApi;
  /** One JSON line per request (ACCESS_LOG_FORMAT): the 429 and latency alarms count from it. */
  readonly accessLogs: logs.LogGroup;
  /** Where CloudFront sends /v1/* (edge.ts). */
  readonly origin: ApiOrigin;
  /** The regional custom domains' names (their `Ref`), which the routes' stack maps to its stage. */
  readonly domainNames: string[] = [];

  constructor(scope: Construct, id: string, props: GatewayApiProps) {
    super(scope, id);
    this.api = new apigw.HttpApi(this, 'HttpApi', {
      apiName: `${SERVICE_NAME}-${props.stage}`,
      description: `${SERVICE_NAME} ${props.stage}: routes under ${API_PREFIX}`,
      // Its routes and stage are the routes' stack's (api-routes.ts), `$default` among them.
      createDefaultStage: false,
      // Behind a custom domain, the only way in is the domain CloudFront calls.
      disableExecuteApiEndpoint: props.domain !== undefined,
    });
    // Kept here, with the stage's other logs (retained in production: requests are evidence in disputes).
    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });

    const stack = Stack.of(this);
    this.origin = props.domain
      ? this.customDomains(props.domain)
      : {
          domainName: `${this.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`,
          forwardHost: false,
        };
  }

  /**
   * Lets this API invoke `fn`, from any of its routes and stages: the routes' stack integrates each
   * function with the routes lib/routes.ts gives it, and no other API may invoke it.
   */
  permitInvoke(fn: lambda.Function): void {
    fn.addPermission('InvokedByApi', {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: this.api.arnForExecuteApi(),
    });
  }

  /**
   * A regional custom domain per name, mapped to the stage by the routes' stack: CloudFront connects to the first one's target
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
      this.domainNames.push(domainName.name);
      return domainName.regionalDomainName;
    });
    return { domainName: targets[0] as string, forwardHost: true };
  }
}
