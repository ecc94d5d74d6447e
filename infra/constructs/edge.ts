// How clients reach the API: a CloudFront distribution with the web ACL of edge-firewall.ts, which
// - sends /v1/* to the HTTP API (gateway-api.ts), uncached, every method, all viewer headers and the
//   query string, HTTPS only on both legs. With a custom domain (prod always) the origin is the API's
//   regional custom domain of the same name, the viewer's Host forwarded (API Gateway picks the domain
//   by it), and the execute-api endpoint is switched off: a request sent around the edge to
//   execute-api reaches neither a function nor a throttle bucket. In prod CloudFront also presents a
//   client certificate the domain requires (mutual TLS), so the domain's own target name is closed the
//   same way. Without one (a disposable stage) the
//   origin is the execute-api endpoint, Host excepted (API Gateway routes it by its own host name);
// - answers every other path itself (a CloudFront Function: the fallback's 404 problem), so no Lambda
//   runs for scanners probing /wp-admin or /.env;
// - adds X-Origin-Verify, a token from Secrets Manager that the API functions check
//   (lib/http/origin-verify.ts): a request that reaches the API around the WAF (the execute-api
//   endpoint of a stage without a domain, or the regional domain of one without mutual TLS, called by
//   its target name) is refused with 403.
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct, type Node } from 'constructs';
import { DEFAULT_ERRORS_BASE } from '../../lib/config.ts';
import { ORIGIN_VERIFY_HEADER } from '../../lib/http/origin-verify.ts';
import { problemKinds } from '../../lib/http/problem.ts';
import { API_PREFIX } from '../../lib/routes.ts';
import { SERVICE_NAME, SynthRefusal } from '../stage.ts';

/**
 * Bump to replace the origin token: the secret's generator changes, so CloudFormation generates a new
 * value, and so does the distribution's comment, so CloudFormation updates the distribution and reads the
 * new value into its origin header (it resolves a dynamic reference only when it updates the resource).
 */
export const ORIGIN_TOKEN_GENERATION = 1;

/**
 * A custom domain for the distribution, with its two ACM certificates for the same names: one in
 * us-east-1, which CloudFront serves, and one in the stage's region, which the API's regional custom
 * domain (CloudFront's origin) serves.
 */
export interface EdgeDomain {
  names: string[];
  certificateArn: string;
  regionalCertificateArn: string;
  /** Mutual TLS between CloudFront and the regional domain (prod: required). */
  originMtls?: OriginMtls;
}

/**
 * CloudFront presents a client certificate to the API's regional custom domain, which accepts only
 * certificates its truststore's CA signed: a request sent to the domain's target name by anyone else
 * fails its TLS handshake, before API Gateway reads it, so it reaches no function and no throttle bucket.
 */
export interface OriginMtls {
  /** The client certificate (TLS client authentication), imported into ACM in us-east-1. */
  clientCertificateArn: string;
  /** `s3://<bucket>/<key>`: the PEM of the CA that signed it, in a bucket of the stage's region. */
  truststoreUri: string;
  /** The truststore object's version (a versioned bucket): a new upload then changes nothing until named. */
  truststoreVersion?: string;
}

const TRUSTSTORE_URI = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/(.+)$/;

/** The bucket and key of a truststore URI. */
export function truststoreLocation(uri: string): { bucket: string; key: string } {
  const match = TRUSTSTORE_URI.exec(uri);
  if (!match) throw new SynthRefusal(`"originTruststoreUri" must be s3://<bucket>/<key>: ${uri}`);
  return { bucket: match[1] as string, key: match[2] as string };
}

const CERTIFICATE_ARN = /^arn:aws[\w-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[\w-]+$/;

/** The region of an ACM certificate ARN, undefined when it is not one. */
export const certificateRegion = (arn: string): string | undefined => CERTIFICATE_ARN.exec(arn)?.[1];

/**
 * `-c domainName=api.example.com[,other] -c certificateArn=arn:aws:acm:us-east-1:...
 * -c regionalCertificateArn=arn:aws:acm:<stage region>:...`, all three or none.
 */
export function domainFromContext(node: Node): EdgeDomain | undefined {
  const given = ['domainName', 'certificateArn', 'regionalCertificateArn'].map((name): unknown =>
    node.tryGetContext(name),
  );
  if (given.every((value) => value === undefined)) return undefined;
  const [names, certificateArn, regionalCertificateArn] = given;
  if (
    typeof names !== 'string' ||
    typeof certificateArn !== 'string' ||
    typeof regionalCertificateArn !== 'string' ||
    !names
  ) {
    throw new SynthRefusal(
      'Context "domainName", "certificateArn" and "regionalCertificateArn" go together: give all three, or none.',
    );
  }
  if (certificateRegion(certificateArn) !== 'us-east-1') {
    throw new SynthRefusal(
      `"certificateArn" must be an ACM certificate in us-east-1 (CloudFront's): ${certificateArn}`,
    );
  }
  if (!certificateRegion(regionalCertificateArn)) {
    throw new SynthRefusal(
      `"regionalCertificateArn" must be an ACM certificate in the stage's region: ${regionalCertificateArn}`,
    );
  }
  const originMtls = originMtlsFromContext(node);
  return {
    names: names.split(',').map((name) => name.trim()),
    certificateArn,
    regionalCertificateArn,
    ...(originMtls ? { originMtls } : {}),
  };
}

/**
 * `-c originClientCertificateArn=<ACM ARN in us-east-1> -c originTruststoreUri=s3://<bucket>/<key>
 * [-c originTruststoreVersion=<version id>]`, the first two together or none.
 */
function originMtlsFromContext(node: Node): OriginMtls | undefined {
  const clientCertificateArn: unknown = node.tryGetContext('originClientCertificateArn');
  const truststoreUri: unknown = node.tryGetContext('originTruststoreUri');
  const truststoreVersion: unknown = node.tryGetContext('originTruststoreVersion');
  if (clientCertificateArn === undefined && truststoreUri === undefined && truststoreVersion === undefined)
    return undefined;
  if (typeof clientCertificateArn !== 'string' || typeof truststoreUri !== 'string')
    throw new SynthRefusal(
      'Context "originClientCertificateArn" and "originTruststoreUri" go together: give both, or none.',
    );
  if (certificateRegion(clientCertificateArn) !== 'us-east-1')
    throw new SynthRefusal(
      `"originClientCertificateArn" must be an ACM certificate in us-east-1 (CloudFront's): ${clientCertificateArn}`,
    );
  truststoreLocation(truststoreUri);
  return {
    clientCertificateArn,
    truststoreUri,
    ...(typeof truststoreVersion === 'string' ? { truststoreVersion } : {}),
  };
}

/** Where CloudFront sends /v1/*: the HTTP API (gateway-api.ts `origin`). */
export interface ApiOrigin {
  domainName: string;
  /**
   * The viewer's Host goes to the origin: a regional custom domain is chosen by it (and CloudFront checks
   * the origin's certificate against it). The execute-api endpoint routes by its own host name instead.
   */
  forwardHost: boolean;
}

export interface GatewayEdgeProps {
  stage: string;
  production: boolean;
  /** The HTTP API: its regional custom domain, or its execute-api endpoint without one. */
  origin: ApiOrigin;
  /** The web ACL for CloudFront (edge-firewall.ts), by ARN. */
  webAclArn: string;
  /** Without one, the distribution answers at its *.cloudfront.net name. */
  domain?: EdgeDomain | undefined;
  /** Other origins' behaviours by path pattern (the business portal's bucket at /portal*). */
  extraBehaviors?: Record<string, cloudfront.BehaviorOptions>;
}

/**
 * The source of the CloudFront Function that answers paths outside /v1: the same problem body as the
 * fallback function's 404 (functions/api/fallback.ts), CloudFront's request id as the requestId.
 */
export function notFoundFunctionCode(errorsBase = DEFAULT_ERRORS_BASE): string {
  const { slug, title } = problemKinds[404];
  return `function handler(event) {
  var request = event.request;
  var requestId = event.context.requestId;
  var body = {
    type: ${JSON.stringify(`${errorsBase}/${slug}`)},
    title: ${JSON.stringify(title)},
    status: 404,
    detail: 'No route ' + request.method + ' ' + request.uri + '.',
    instance: request.uri,
    requestId: requestId
  };
  return {
    statusCode: 404,
    statusDescription: ${JSON.stringify(title)},
    headers: {
      'content-type': { value: 'application/problem+json' },
      'x-request-id': { value: requestId }
    },
    body: { encoding: 'text', data: JSON.stringify(body) }
  };
}
`;
}

export class GatewayEdge extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly originToken: secretsmanager.Secret;
  readonly #domain: EdgeDomain | undefined;

  constructor(scope: Construct, id: string, props: GatewayEdgeProps) {
    super(scope, id);
    const { stage } = props;
    // *.cloudfront.net has a TLSv1 floor CloudFront fixes: production only ever serves its own name.
    if (props.production && !props.domain) {
      throw new SynthRefusal(
        `Stage ${stage} needs a custom domain: pass -c domainName=<name> -c certificateArn=<ACM ` +
          'certificate in us-east-1> -c regionalCertificateArn=<ACM certificate in the stage region> ' +
          '(docs/production.md).',
      );
    }
    // Without mutual TLS, the regional domain answers anyone who calls its target name (the origin token
    // refuses them in the functions, but after they took a throttle bucket's share).
    if (props.production && props.domain && !props.domain.originMtls) {
      throw new SynthRefusal(
        `Stage ${stage} needs mutual TLS to its origin: pass -c originClientCertificateArn=<ACM client ` +
          'certificate in us-east-1> -c originTruststoreUri=s3://<bucket>/<key of its CA> (docs/production.md).',
      );
    }
    this.#domain = props.domain;

    this.originToken = new secretsmanager.Secret(this, 'OriginToken', {
      secretName: `${stage}/${SERVICE_NAME}/origin-verify`,
      description: `${SERVICE_NAME} ${stage}: the X-Origin-Verify token CloudFront sends and the API checks.`,
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ generation: ORIGIN_TOKEN_GENERATION }),
        generateStringKey: 'token',
        passwordLength: 64,
        excludePunctuation: true,
      },
      // Deleted with the stack, in every stage: worth nothing without the distribution that sends it,
      // and a retained one would stand in the way of the stack created again (its name is fixed).
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.originToken).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'Not rotated by a Secrets Manager schedule: CloudFormation copies the token into the origin header ' +
        'only when it updates the distribution, so a rotation behind its back would leave CloudFront sending ' +
        'a token two generations old, which the functions refuse. It is replaced by bumping ' +
        'ORIGIN_TOKEN_GENERATION (infra/constructs/edge.ts) and deploying: the new value becomes AWSCURRENT, ' +
        'the old one AWSPREVIOUS, and the functions accept both while the edges switch over. It only proves ' +
        'a request came through CloudFront and the WAF; every route still authenticates.',
    });

    const origin = new origins.HttpOrigin(props.origin.domainName, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      customHeaders: {
        // A {{resolve:secretsmanager:...}} reference: the value never appears in the template.
        [ORIGIN_VERIFY_HEADER]: this.originToken.secretValueFromJson('token').unsafeUnwrap(),
      },
    });
    // Every answer, the API's and the edge's own 404s, carries HSTS (two years, subdomains, preload: the
    // API is HTTPS only, so no client should ever try it in clear) and the usual headers of an API that
    // serves JSON to programs: no sniffing, no framing, no referrer, nothing cached by a browser.
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: `${SERVICE_NAME} ${stage}: HSTS and security headers on every answer`,
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentSecurityPolicy: {
          contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'",
          override: true,
        },
      },
    });
    const toApi: cloudfront.BehaviorOptions = {
      origin,
      responseHeadersPolicy: securityHeaders,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: props.origin.forwardHost
        ? cloudfront.OriginRequestPolicy.ALL_VIEWER
        : cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    const notFound = new cloudfront.Function(this, 'NotFound', {
      comment: `${SERVICE_NAME} ${stage}: 404 problem for paths outside ${API_PREFIX}`,
      code: cloudfront.FunctionCode.fromInline(notFoundFunctionCode()),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const certificate = props.domain
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn)
      : undefined;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: `${SERVICE_NAME} ${stage} API (origin token generation ${ORIGIN_TOKEN_GENERATION})`,
      // Paths outside /v1 never reach the origin: the function answers at the viewer request.
      defaultBehavior: {
        ...toApi,
        functionAssociations: [
          { function: notFound, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST },
        ],
      },
      additionalBehaviors: { [`${API_PREFIX}/*`]: toApi, ...props.extraBehaviors },
      webAclId: props.webAclArn,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: props.production
        ? cloudfront.PriceClass.PRICE_CLASS_ALL
        : cloudfront.PriceClass.PRICE_CLASS_100,
      ...(props.domain && certificate
        ? {
            domainNames: props.domain.names,
            certificate,
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
            sslSupportMethod: cloudfront.SSLMethod.SNI,
          }
        : {}),
    });

    const mtls = props.domain?.originMtls;
    if (mtls) {
      // The L2 origin has no property for it yet: the API's origin is the distribution's only one.
      const cfn = this.distribution.node.defaultChild as cloudfront.CfnDistribution;
      cfn.addPropertyOverride('DistributionConfig.Origins.0.CustomOriginConfig.OriginMtlsConfig', {
        ClientCertificateArn: mtls.clientCertificateArn,
      });
    }

    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'The API serves registered integrators wherever they operate; who may call is decided by the ' +
          'application key and token, abuse is limited by the web ACL (IP reputation, per-IP rates).',
      },
      {
        id: 'AwsSolutions-CFR3',
        reason:
          'No standard logs: the web ACL logs each request it evaluates, allowed or blocked, with the client ' +
          'address, method, URI and headers (aws-waf-logs-* group in us-east-1, credentials redacted); what ' +
          'those lines lack, the response, is in the API access log (status, latency) for every request that ' +
          'reaches the origin; an error CloudFront makes itself is only counted, by its 5xx-rate metric, which ' +
          'an alarm of the us-east-1 edge-alarms stack watches beside the WAF blocked rate.',
      },
    );
    if (!props.domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'No custom domain is configured for this stage: CloudFront serves *.cloudfront.net with its ' +
          'default certificate, whose security policy it fixes at TLSv1. A custom domain ' +
          '(docs/production.md) uses TLSv1.2_2021; the origin leg is TLS 1.2 either way.',
      });
    }
  }

  /** The function checks X-Origin-Verify: it learns the secret's id and may read it (GetSecretValue only). */
  requireOriginToken(fn: lambda.Function): void {
    fn.addEnvironment('ORIGIN_VERIFY_SECRET_ID', this.originToken.secretArn);
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [this.originToken.secretArn],
      }),
    );
  }

  /** The base URL clients use: every route is under /v1. */
  get versionedUrl(): string {
    const host = this.#domain?.names[0] ?? this.distribution.distributionDomainName;
    return `https://${host}${API_PREFIX}`;
  }
}
