// The business portal on AWS: its files in a private bucket (no public access, TLS only), served by the
// stage's CloudFront distribution at /portal (same origin as /v1: no CORS, the same web ACL in front)
// through origin access control, with the portal's security headers (portal/headers.ts: its strict
// Content-Security-Policy) set by a response headers policy. The files are put in the bucket by a
// stack of their own (PortalContentStack), so the main stack holds only the functions it declares.
import { Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { PORTAL_CSP } from '../../portal/headers.ts';
import { SERVICE_NAME } from '../stage.ts';

/** Where `npm run build` (and every synth, through esbuild.config.ts's buildAll) writes the portal. */
export const PORTAL_DIST = 'dist/portal';
/** The path the portal is served under; its files' keys in the bucket start with it. */
export const PORTAL_PATH = 'portal';

/**
 * `/portal` and `/portal/` are the app shell: the bucket holds `portal/index.html`. Every other path is
 * the file it names (the app routes by the URL's fragment, which never reaches CloudFront).
 */
export const PORTAL_INDEX_FUNCTION = `function handler(event) {
  var request = event.request;
  if (request.uri === '/${PORTAL_PATH}' || request.uri === '/${PORTAL_PATH}/') request.uri = '/${PORTAL_PATH}/index.html';
  return request;
}
`;

/**
 * The bucket's name, fixed by stage, account and region (bucket names are global): the content stack
 * names it instead of importing it from this stack, so its grants name the bucket itself.
 */
export const portalBucketName = (stage: string, stack: { account: string; region: string }) =>
  `${SERVICE_NAME}-${stage}-portal-${stack.account}-${stack.region}`;

export class PortalSite extends Construct {
  readonly bucket: s3.Bucket;
  /** The distribution's behaviours for the portal, by path pattern. */
  readonly behaviors: Record<string, cloudfront.BehaviorOptions>;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      bucketName: portalBucketName(props.stage, Stack.of(this)),
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // Build output, put back by every deploy: deleted with the stack in every stage. The content stack
      // (deployed after this one, deleted before it) takes its files out first.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The build output of a public web app, read only by CloudFront through origin access control: each ' +
        'request is logged where it arrives, by the web ACL (aws-waf-logs-* in us-east-1); its writes are ' +
        'the deployment’s, in CloudTrail.',
    });
    const headers = new cloudfront.ResponseHeadersPolicy(this, 'Headers', {
      comment: `${SERVICE_NAME} ${props.stage}: the portal's security headers (portal/headers.ts)`,
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: PORTAL_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          // As the API's behaviours (edge.ts): one HSTS for the whole domain.
          preload: true,
          override: true,
        },
      },
    });
    const index = new cloudfront.Function(this, 'Index', {
      comment: `${SERVICE_NAME} ${props.stage}: /portal/ is the portal's index.html`,
      code: cloudfront.FunctionCode.fromInline(PORTAL_INDEX_FUNCTION),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });
    this.behaviors = {
      [`/${PORTAL_PATH}*`]: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        compress: true,
        functionAssociations: [{ function: index, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
    };
  }
}

/** Puts dist/portal in the portal's bucket at every deploy, and clears the distribution's copies of it. */
export class PortalContentStack extends Stack {
  constructor(
    scope: Construct,
    id: string,
    props: StackProps & { stage: string; distribution: cloudfront.IDistribution },
  ) {
    super(scope, id, props);
    const bucketName = portalBucketName(props.stage, this);
    new s3deploy.BucketDeployment(this, 'Files', {
      sources: [s3deploy.Source.asset(PORTAL_DIST)],
      destinationBucket: s3.Bucket.fromBucketName(this, 'Bucket', bucketName),
      destinationKeyPrefix: `${PORTAL_PATH}/`,
      distribution: props.distribution,
      distributionPaths: [`/${PORTAL_PATH}*`],
      prune: true,
      retainOnDelete: false,
      memoryLimit: 256,
    });
    // What CDK's BucketDeployment function is granted, finding by finding: it runs at deploy time only.
    const assets = `arn:aws:s3:::cdk-hnb659fds-assets-${this.account}-${this.region}/*`;
    Validations.of(this).acknowledge(
      {
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          'CDK’s BucketDeployment function logs with the AWS managed basic execution policy (its own logs).',
      },
      ...['s3:Abort*', 's3:DeleteObject*', 's3:GetBucket*', 's3:GetObject*', 's3:List*'].map((action) => ({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason:
          'BucketDeployment reads its source asset and replaces the portal’s files (CDK’s object-level grants), ' +
          'on those two buckets only.',
      })),
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'cloudfront:CreateInvalidation (of /portal*, after each deploy) takes no resource-level permission here.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::${assets}]`,
        reason:
          'The portal files’ zip, which cdk deploy uploads to the bootstrap assets bucket: the function reads its ' +
          'own asset object there, under the key CDK gives it.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:aws:s3:::${bucketName}/*]`,
        reason:
          'Every object of the portal’s own bucket: a deploy replaces the files under portal/ and deletes the ones a ' +
          'build no longer makes (prune).',
      },
      {
        id: 'AwsSolutions-L1',
        reason: 'The BucketDeployment function’s runtime is CDK’s choice, updated with aws-cdk-lib.',
      },
    );
  }
}
