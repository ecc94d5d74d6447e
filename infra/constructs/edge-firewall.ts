// The web ACL in front of the API's CloudFront distribution (edge.ts). A web ACL for CloudFront (scope
// CLOUDFRONT) can only be created in us-east-1, whatever region the API runs in, so it has a small stack
// of its own there, and its log group with it (WAF logs to its own region). The API's stack reads the
// ARN with Fn::GetStackOutput (infra/stack-output.ts).
import { CfnOutput, type RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { DEFAULT_ERRORS_BASE } from '../../lib/config.ts';
import { MAX_BODY_BYTES } from '../../lib/http/json-body.ts';
import { problemKinds } from '../../lib/http/problem.ts';
import { API_PREFIX, routes } from '../../lib/routes.ts';
import { retainedName } from '../retained-name.ts';
import { stackOutputFor } from '../stack-output.ts';
import { SERVICE_NAME, type Throttles } from '../stage.ts';
import { providerSourceRangesFromContext, providerSourceRules } from './provider-sources.ts';

/** The only region where a web ACL for CloudFront can be created. */
export const CLOUDFRONT_WAF_REGION = 'us-east-1';

/** AWS managed rule groups, evaluated in this order after the IP reputation list and the rate rules. */
export const MANAGED_RULE_GROUPS = [
  // Addresses Amazon's threat intelligence knows for bots, reconnaissance and DDoS.
  'AWSManagedRulesAmazonIpReputationList',
  // Request patterns known to exploit vulnerabilities (Log4j, Java deserialization, localhost hosts, ...).
  'AWSManagedRulesKnownBadInputsRuleSet',
  // OWASP-style core rules: XSS, LFI/RFI, SSRF to metadata endpoints, missing User-Agent, size limits.
  'AWSManagedRulesCommonRuleSet',
] as const;

/**
 * Rules of the managed groups that only count: the API accepts JSON bodies up to 64 KiB
 * (lib/http/json-body.ts), the core rule set blocks any body above 8 KiB. The API answers an oversized
 * body with its own 413 problem.
 */
export const COUNTED_MANAGED_RULES: Partial<Record<(typeof MANAGED_RULE_GROUPS)[number], string[]>> = {
  AWSManagedRulesCommonRuleSet: ['SizeRestrictions_BODY'],
};

/** Rate-based rules count requests per client address over this window. */
export const RATE_WINDOW_SECONDS = 300;

function tokenRoute(): { method: string; path: string } {
  const route = routes.find((r) => r.operation === 'issueToken');
  if (!route) throw new Error('lib/routes.ts has no issueToken route.');
  return { method: route.method, path: `${API_PREFIX}${route.path}` };
}

/** A rule before its place in the list (priority) and its metrics are given. */
type Rule = Omit<wafv2.CfnWebACL.RuleProperty, 'priority' | 'visibilityConfig' | 'statement'> & {
  statement: wafv2.CfnWebACL.StatementProperty;
};

const RATE_LIMITED_BODY = 'rate-limited';

/** What a rate-limited client receives: a problem body (WAF can only label it application/json). */
export function rateLimitedBody(): string {
  const { slug, title } = problemKinds[429];
  return JSON.stringify({
    type: `${DEFAULT_ERRORS_BASE}/${slug}`,
    title,
    status: 429,
    detail: `Too many requests from this address; retry after a few minutes.`,
  });
}

export interface EdgeFirewallProps {
  stage: string;
  throttle: Pick<Throttles, 'perIpPer5Minutes' | 'tokenPerIpPer5Minutes' | 'tokenPerKeyPer5Minutes'>;
  logRetention: logs.RetentionDays;
  removalPolicy: RemovalPolicy;
}

const metricName = (stage: string, rule: string) => `${SERVICE_NAME}-${stage}-${rule}`;
const visibility = (stage: string, rule: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
  cloudWatchMetricsEnabled: true,
  metricName: metricName(stage, rule),
  sampledRequestsEnabled: true,
});

/**
 * How a path is compared: normalised (`/v1//auth/./token` → `/v1/auth/token`) and lower-cased, so a
 * variant of the token route that API Gateway would still route cannot slip past its rate rule.
 */
export const PATH_TRANSFORMATIONS = ['NORMALIZE_PATH', 'LOWERCASE'] as const;

const exactly = (
  fieldToMatch: wafv2.CfnWebACL.FieldToMatchProperty,
  searchString: string,
  transformations: readonly string[] = ['NONE'],
): wafv2.CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch,
    positionalConstraint: 'EXACTLY',
    searchString,
    textTransformations: transformations.map((type, priority) => ({ priority, type })),
  },
});

export class EdgeFirewall extends Construct {
  readonly webAcl: wafv2.CfnWebACL;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    const { stage } = props;
    const rateLimited: wafv2.CfnWebACL.RuleActionProperty = {
      block: { customResponse: { responseCode: 429, customResponseBodyKey: RATE_LIMITED_BODY } },
    };

    const token = tokenRoute();
    const tokenRequests: wafv2.CfnWebACL.StatementProperty = {
      andStatement: {
        statements: [
          exactly({ method: {} }, token.method),
          exactly({ uriPath: {} }, token.path.toLowerCase(), PATH_TRANSFORMATIONS),
        ],
      },
    };
    const rules: Rule[] = [
      {
        name: 'AmazonIpReputation',
        statement: {
          managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
        },
      },
      {
        // Credential guessing: the token route is the one that takes only an application key.
        name: 'TokenRatePerIp',
        statement: {
          rateBasedStatement: {
            limit: props.throttle.tokenPerIpPer5Minutes,
            evaluationWindowSec: RATE_WINDOW_SECONDS,
            aggregateKeyType: 'IP',
            scopeDownStatement: tokenRequests,
          },
        },
        action: rateLimited,
      },
      {
        // One application key from many addresses: counted per x-service-auth value before any request
        // reaches the service, whose own limit (lib/limits) counts only keys it has proven. A request
        // without the header is not counted here (the per-IP rules are its limit).
        name: 'TokenRatePerKey',
        statement: {
          rateBasedStatement: {
            limit: props.throttle.tokenPerKeyPer5Minutes,
            evaluationWindowSec: RATE_WINDOW_SECONDS,
            aggregateKeyType: 'CUSTOM_KEYS',
            customKeys: [
              { header: { name: 'x-service-auth', textTransformations: [{ priority: 0, type: 'NONE' }] } },
            ],
            scopeDownStatement: tokenRequests,
          },
        },
        action: rateLimited,
      },
      {
        name: 'RatePerIp',
        statement: {
          rateBasedStatement: {
            limit: props.throttle.perIpPer5Minutes,
            evaluationWindowSec: RATE_WINDOW_SECONDS,
            aggregateKeyType: 'IP',
          },
        },
        action: rateLimited,
      },
      ...providerSourceRules(this, stage, providerSourceRangesFromContext(this.node)),
      {
        // No valid request needs more than the API accepts (lib/http/json-body.ts): larger bodies stop
        // here, before CloudFront forwards them. The web ACL inspects the first 64 KiB (the association
        // config below); a body beyond what it inspected matches too (oversizeHandling MATCH).
        name: 'BodyTooLarge',
        statement: {
          sizeConstraintStatement: {
            fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
            comparisonOperator: 'GT',
            size: MAX_BODY_BYTES,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
        action: { block: { customResponse: { responseCode: 413 } } },
      },
      ...MANAGED_RULE_GROUPS.filter((name) => name !== 'AWSManagedRulesAmazonIpReputationList').map(
        (name): Rule => ({
          name: name.replace(/^AWSManagedRules/, ''),
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name,
              ...(COUNTED_MANAGED_RULES[name]
                ? {
                    ruleActionOverrides: COUNTED_MANAGED_RULES[name].map((rule) => ({
                      name: rule,
                      actionToUse: { count: {} },
                    })),
                  }
                : {}),
            },
          },
        }),
      ),
    ];
    const ordered = rules.map(
      (rule, priority): wafv2.CfnWebACL.RuleProperty => ({
        ...rule,
        priority,
        visibilityConfig: visibility(stage, rule.name),
        // A managed group's own actions apply (none: no override); rate rules carry their action.
        ...(rule.statement.managedRuleGroupStatement ? { overrideAction: { none: {} } } : {}),
      }),
    );

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `${SERVICE_NAME}-${stage}`,
      description: `${SERVICE_NAME} ${stage}: in front of the API CloudFront distribution`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(stage, 'all'),
      customResponseBodies: {
        [RATE_LIMITED_BODY]: { contentType: 'APPLICATION_JSON', content: rateLimitedBody() },
      },
      rules: ordered,
      // CloudFront's default inspection limit is 16 KiB; BodyTooLarge needs the API's 64 KiB.
      associationConfig: { requestBody: { CLOUDFRONT: { defaultSizeInspectionLimit: 'KB_64' } } },
    });

    // Every request the edge receives, allowed or blocked, with the client's address: the distribution's
    // access log (see the CFR3 acknowledgment in edge.ts). WAF requires the `aws-waf-logs-` prefix.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      logGroupName: retainedName(this, `aws-waf-logs-${SERVICE_NAME}-${stage}`, props.removalPolicy),
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    const logging = new wafv2.CfnLoggingConfiguration(this, 'Logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [this.logGroup.logGroupArn],
      // Credentials never reach a log (the API's access log has no headers at all).
      redactedFields: [
        { singleHeader: { Name: 'authorization' } },
        { singleHeader: { Name: 'x-service-auth' } },
      ],
    });
    logging.node.addDependency(this.webAcl);
  }
}

export interface EdgeFirewallStackProps extends StackProps, EdgeFirewallProps {}

/** The web ACL's own stack, in us-east-1; the API's stack creates it beside itself (infra/stack.ts). */
export class EdgeFirewallStack extends Stack {
  readonly firewall: EdgeFirewall;
  readonly #webAclArn: CfnOutput;

  constructor(scope: Construct, id: string, props: EdgeFirewallStackProps) {
    const { stage, throttle, logRetention, removalPolicy, ...stackProps } = props;
    super(scope, id, stackProps);
    if (this.region !== CLOUDFRONT_WAF_REGION) {
      throw new Error(
        `A web ACL for CloudFront must be created in ${CLOUDFRONT_WAF_REGION}, not ${this.region}.`,
      );
    }
    this.firewall = new EdgeFirewall(this, 'Firewall', { stage, throttle, logRetention, removalPolicy });
    this.#webAclArn = new CfnOutput(this, 'WebAclArn', {
      description: "The web ACL's ARN, which the API's distribution names (read with Fn::GetStackOutput).",
      value: this.firewall.webAcl.attrArn,
    });
  }

  /** The web ACL's ARN for a stack in any region (read when that stack is deployed, after this one). */
  webAclArnFor(consumer: Stack): string {
    return stackOutputFor(consumer, this.#webAclArn, 'its CloudFront distribution names the web ACL');
  }
}
