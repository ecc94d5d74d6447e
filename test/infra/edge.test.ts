// The edge (issue #12 §3): CloudFront with a WAF web ACL in front of the HTTP API, the API reachable only
// through it, per-route throttles, and unknown routes answered without a 1 GiB function. One synth: a dev
// stack without a custom domain and a prod stack with one, each with its us-east-1 web ACL stack.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { describe, test } from 'vitest';
import { domainFromContext, notFoundFunctionCode } from '../../infra/constructs/edge.ts';
import { EdgeFirewallStack } from '../../infra/constructs/edge-firewall.ts';
import { providerSourceRangesFromContext } from '../../infra/constructs/provider-sources.ts';
import { nagChecks } from '../../infra/nag.ts';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { stageSettings, type Throttles } from '../../infra/stage.ts';
import { MAX_BODY_BYTES } from '../../lib/http/json-body.ts';
import { ORIGIN_VERIFY_HEADER } from '../../lib/http/origin-verify.ts';
import { API_PREFIX, routeKeyOf, routes } from '../../lib/routes.ts';
import { openApiDocument } from '../../openapi/document.ts';
import { PORTAL_CSP } from '../../portal/headers.ts';
import { Contract } from '../support/contract.ts';
import {
  asArray,
  ensureBundles,
  newApp,
  ofType,
  ownFunctions,
  PROD_REQUIRED,
  type Resources,
  referencedId,
  stageProps,
  stageTemplate,
} from './support.ts';

await ensureBundles();
const DOMAIN = PROD_REQUIRED.domain;
const app = newApp();
const devStack = new PaymentsGatewayStack(app, 'Dev', { stage: 'dev' });
const prodStack = new PaymentsGatewayStack(app, 'Prod', stageProps('prod'));
const assembly = app.synth();

interface Synthesized {
  name: string;
  stage: string;
  region: string;
  settings: Throttles;
  resources: Resources;
  outputs: Record<string, { Value: unknown }>;
  edgeName: string;
  edge: Resources;
  edgeOutputs: Record<string, { Value: unknown }>;
}
const synthesized = (stack: PaymentsGatewayStack): Synthesized => {
  const edgeStack = assembly.getStackArtifact(`${stack.artifactId}-edge`);
  const template = stageTemplate(stack).toJSON();
  return {
    name: stack.stackName,
    stage: stack.settings.stage,
    region: stack.region,
    settings: stack.settings.throttle,
    resources: template.Resources as Resources,
    outputs: template.Outputs,
    edgeName: edgeStack.stackName,
    edge: edgeStack.template.Resources as Resources,
    edgeOutputs: edgeStack.template.Outputs,
  };
};
const dev = synthesized(devStack);
const prod = synthesized(prodStack);

const only = (resources: Resources, type: string) => {
  const found = ofType(resources, type);
  assert.equal(found.length, 1, `exactly one ${type}`);
  return found[0] as [string, { Properties?: Record<string, unknown> }];
};
// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, read as the template has them.
type Json = any;
const distributionConfig = (s: Synthesized): Json =>
  only(s.resources, 'AWS::CloudFront::Distribution')[1].Properties?.DistributionConfig;
const webAcl = (s: Synthesized): Json => only(s.edge, 'AWS::WAFv2::WebACL')[1].Properties;
const functionNamed = (s: Synthesized, bundle: string): [string, Json] => {
  const found = ofType(s.resources, 'AWS::Lambda::Function').find(
    ([, r]) => r.Properties?.Description === `payments-gateway ${s.stage} ${bundle}`,
  );
  assert.ok(found, `function ${bundle}`);
  return [found[0], found[1].Properties];
};

// AWS managed policies, by their documented ids.
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const ALL_VIEWER = '216adef6-5c7f-47e4-b989-5492eafa07d3';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

describe('the web ACL', () => {
  test('lives in a stack of its own in us-east-1, scope CLOUDFRONT, which the API stack depends on', () => {
    for (const s of [dev, prod]) {
      const artifact = assembly.getStackArtifact(`${s.name}-edge`);
      assert.equal(artifact.environment.region, 'us-east-1');
      assert.equal(webAcl(s).Scope, 'CLOUDFRONT');
      assert.deepEqual(webAcl(s).DefaultAction, { Allow: {} });
      const dependencies = assembly.getStackArtifact(s.name).dependencies.map((d) => d.id);
      assert.ok(dependencies.includes(artifact.id), `${s.name} is deployed after ${artifact.id}`);
    }
  });

  test('runs the AWS managed rule groups: IP reputation, known bad inputs, the core rule set', () => {
    const groups = (webAcl(dev).Rules as Json[]).filter((rule) => rule.Statement.ManagedRuleGroupStatement);
    assert.deepEqual(
      new Set(groups.map((rule) => rule.Statement.ManagedRuleGroupStatement.Name)),
      new Set([
        'AWSManagedRulesAmazonIpReputationList',
        'AWSManagedRulesKnownBadInputsRuleSet',
        'AWSManagedRulesCommonRuleSet',
      ]),
    );
    for (const rule of groups) {
      assert.equal(rule.Statement.ManagedRuleGroupStatement.VendorName, 'AWS');
      assert.deepEqual(rule.OverrideAction, { None: {} }, `${rule.Name} blocks what it matches`);
      assert.equal(rule.VisibilityConfig.CloudWatchMetricsEnabled, true);
    }
    // Only the core set's 8 KiB body limit counts instead of blocking: the API takes bodies up to 64 KiB.
    const overrides = groups.flatMap(
      (rule) => rule.Statement.ManagedRuleGroupStatement.RuleActionOverrides ?? [],
    );
    assert.deepEqual(overrides, [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }]);
  });

  test('a body above what the API accepts is blocked at the edge (413), bodies inspected up to 64 KiB', () => {
    for (const s of [dev, prod]) {
      const rule = (webAcl(s).Rules as Json[]).find((r) => r.Statement.SizeConstraintStatement);
      assert.deepEqual(rule?.Statement.SizeConstraintStatement, {
        FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
        ComparisonOperator: 'GT',
        Size: MAX_BODY_BYTES,
        TextTransformations: [{ Priority: 0, Type: 'NONE' }],
      });
      assert.equal(rule?.Action.Block.CustomResponse.ResponseCode, 413);
      assert.deepEqual(webAcl(s).AssociationConfig, {
        RequestBody: { CLOUDFRONT: { DefaultSizeInspectionLimit: 'KB_64' } },
      });
    }
  });

  test('a normalised variant of the token path still counts against the token rate rule', () => {
    // WAF's NORMALIZE_PATH then LOWERCASE, as AWS documents them: duplicate slashes, /./ and /../
    // resolved, then lower case.
    const normalise = (path: string) => {
      const out: string[] = [];
      for (const part of path.split('/').slice(1)) {
        if (part === '' || part === '.') continue;
        if (part === '..') out.pop();
        else out.push(part);
      }
      return `/${out.join('/')}${path.endsWith('/') && out.length ? '/' : ''}`.toLowerCase();
    };
    const rule = (webAcl(prod).Rules as Json[]).find((r) => r.Name === 'TokenRatePerIp');
    const [, uri] = rule.Statement.RateBasedStatement.ScopeDownStatement.AndStatement.Statements;
    assert.deepEqual(
      uri.ByteMatchStatement.TextTransformations.map((t: Json) => t.Type),
      ['NORMALIZE_PATH', 'LOWERCASE'],
    );
    for (const variant of [
      '/v1/auth/token',
      '/v1//auth/token',
      '/v1/./auth/token',
      '/V1/Auth/Token',
      '/v1/x/../auth/token',
    ])
      assert.equal(normalise(variant), uri.ByteMatchStatement.SearchString, variant);
  });

  test('rate-based rules per client IP: all requests, and POST /v1/auth/token, answered 429', () => {
    for (const s of [dev, prod]) {
      const rateRules = (webAcl(s).Rules as Json[]).filter((rule) => rule.Statement.RateBasedStatement);
      const byLimit = new Map(rateRules.map((rule) => [rule.Statement.RateBasedStatement.Limit, rule]));
      const all = byLimit.get(s.settings.perIpPer5Minutes);
      const token = byLimit.get(s.settings.tokenPerIpPer5Minutes);
      assert.ok(all && token, `${s.name}: rate rules with the stage's limits`);
      for (const rule of [all, token]) {
        assert.equal(rule.Statement.RateBasedStatement.AggregateKeyType, 'IP');
        assert.equal(rule.Statement.RateBasedStatement.EvaluationWindowSec, 300);
        assert.equal(rule.Action.Block.CustomResponse.ResponseCode, 429);
      }
      assert.equal(all.Statement.RateBasedStatement.ScopeDownStatement, undefined, 'every path counts');
      const scope = token.Statement.RateBasedStatement.ScopeDownStatement.AndStatement.Statements.map(
        (statement: Json) => [
          Object.keys(statement.ByteMatchStatement.FieldToMatch)[0],
          statement.ByteMatchStatement.SearchString,
          statement.ByteMatchStatement.PositionalConstraint,
        ],
      );
      assert.deepEqual(scope, [
        ['Method', 'POST', 'EXACTLY'],
        ['UriPath', '/v1/auth/token', 'EXACTLY'],
      ]);
      const bodyKey = all.Action.Block.CustomResponse.CustomResponseBodyKey;
      const body = webAcl(s).CustomResponseBodies[bodyKey];
      assert.equal(body.ContentType, 'APPLICATION_JSON');
      const problem = JSON.parse(body.Content);
      assert.equal(problem.status, 429);
      assert.match(problem.type, /\/rate-limited$/);
    }
  });

  test('a rate-based rule keyed on the x-service-auth header in front of POST /v1/auth/token, answered 429', () => {
    for (const s of [dev, prod]) {
      const rule = (webAcl(s).Rules as Json[]).find((r) => r.Name === 'TokenRatePerKey');
      assert.ok(rule, `${s.name}: a TokenRatePerKey rule`);
      const statement = rule.Statement.RateBasedStatement;
      assert.equal(statement.Limit, s.settings.tokenPerKeyPer5Minutes);
      assert.equal(statement.EvaluationWindowSec, 300);
      assert.equal(statement.AggregateKeyType, 'CUSTOM_KEYS');
      assert.deepEqual(statement.CustomKeys, [
        { Header: { Name: 'x-service-auth', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
      ]);
      const scope = statement.ScopeDownStatement.AndStatement.Statements.map((inner: Json) => [
        Object.keys(inner.ByteMatchStatement.FieldToMatch)[0],
        inner.ByteMatchStatement.SearchString,
      ]);
      assert.deepEqual(scope, [
        ['Method', 'POST'],
        ['UriPath', '/v1/auth/token'],
      ]);
      assert.equal(rule.Action.Block.CustomResponse.ResponseCode, 429);
      // Before the managed groups, beside the per-IP rules: a flood stops before the service sees it.
      const names = (webAcl(s).Rules as Json[]).map((r) => r.Name);
      assert.ok(names.indexOf('TokenRatePerKey') < names.indexOf('CommonRuleSet'), names.join(', '));
    }
  });

  test('where a provider publishes its source ranges, its production notification route takes nothing from elsewhere', () => {
    const withRanges = new App({
      context: {
        providerSourceRanges: JSON.stringify({
          'ke-momo': ['203.0.113.0/24', '2001:db8::/32'],
          'za-bank-offramp-usdc-zar': ['198.51.100.7/32'],
        }),
      },
    });
    const settings = stageSettings('prod');
    const edge = new EdgeFirewallStack(withRanges, 'Ranges', {
      env: { account: '123456789012', region: 'us-east-1' },
      stage: 'prod',
      throttle: settings.throttle,
      logRetention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const template = Template.fromStack(edge).toJSON();
    const resources = template.Resources as Resources;
    const sets = ofType(resources, 'AWS::WAFv2::IPSet');
    assert.deepEqual(
      sets.map(([, set]) => {
        const p = set.Properties as Json;
        return [p.IPAddressVersion, p.Addresses, p.Scope];
      }),
      [
        ['IPV4', ['203.0.113.0/24'], 'CLOUDFRONT'],
        ['IPV6', ['2001:db8::/32'], 'CLOUDFRONT'],
        ['IPV4', ['198.51.100.7/32'], 'CLOUDFRONT'],
      ],
    );
    const rules = (only(resources, 'AWS::WAFv2::WebACL')[1].Properties as Json).Rules as Json[];
    const rule = rules.find((r) => r.Name === 'ProviderSources-ke-momo');
    assert.ok(rule, rules.map((r) => r.Name).join(', '));
    assert.deepEqual(rule.Action, { Block: {} });
    const [path, outside] = rule.Statement.AndStatement.Statements;
    assert.equal(path.ByteMatchStatement.SearchString, '/v1/provider-notifications/production/ke-momo');
    assert.equal(path.ByteMatchStatement.PositionalConstraint, 'EXACTLY');
    const inside = outside.NotStatement.Statement.OrStatement.Statements.map(
      (statement: Json) => statement.IPSetReferenceStatement.Arn['Fn::GetAtt'][0],
    );
    assert.deepEqual(inside, [sets[0]?.[0], sets[1]?.[0]]);
    // Before the managed groups: nothing from elsewhere reaches the service.
    const names = rules.map((r) => r.Name);
    assert.ok(names.indexOf('ProviderSources-ke-momo') < names.indexOf('CommonRuleSet'));
    // Without the context, no such rule (the sandbox path is never restricted).
    assert.ok(!(webAcl(prod).Rules as Json[]).some((r) => String(r.Name).startsWith('ProviderSources')));
    assert.throws(
      () =>
        providerSourceRangesFromContext(
          new App({ context: { providerSourceRanges: '{"ke-momo":["x"]}' } }).node,
        ),
      /is not a CIDR/,
    );
  });

  test('logs every request to an aws-waf-logs-* group of its region, credentials redacted', () => {
    for (const s of [dev, prod]) {
      const [, logging] = only(s.edge, 'AWS::WAFv2::LoggingConfiguration');
      const p = logging.Properties as Json;
      assert.equal(referencedId(p.ResourceArn), only(s.edge, 'AWS::WAFv2::WebACL')[0]);
      const logGroup = s.edge[referencedId(p.LogDestinationConfigs[0])];
      assert.equal(logGroup?.Type, 'AWS::Logs::LogGroup');
      // prod: the name ends with the stack's id (infra/retained-name.ts), so it is an Fn::Join.
      const name = logGroup?.Properties?.LogGroupName as Json;
      assert.match(typeof name === 'string' ? name : name['Fn::Join'][1][0], /^aws-waf-logs-/);
      assert.ok(Number(logGroup?.Properties?.RetentionInDays) > 0);
      assert.equal(p.LoggingFilter, undefined, 'allowed requests are logged too');
      assert.deepEqual(p.RedactedFields, [
        { SingleHeader: { Name: 'authorization' } },
        { SingleHeader: { Name: 'x-service-auth' } },
      ]);
    }
  });
});

describe('the distribution', () => {
  test('is attached to the web ACL of its us-east-1 stack (Fn::GetStackOutput)', () => {
    for (const s of [dev, prod]) {
      const { StackName, Region, OutputName } = distributionConfig(s).WebACLId['Fn::GetStackOutput'];
      assert.equal(StackName, s.edgeName);
      assert.equal(Region, 'us-east-1');
      assert.deepEqual(s.edgeOutputs[OutputName]?.Value, {
        'Fn::GetAtt': [only(s.edge, 'AWS::WAFv2::WebACL')[0], 'Arn'],
      });
    }
  });

  test('sends /v1/* to the HTTP API over HTTPS (TLS 1.2), uncached, every method, viewer headers', () => {
    for (const s of [dev, prod]) {
      const config = distributionConfig(s);
      // The API's origin first (its mTLS override names Origins.0); the portal's bucket the other.
      const [origin] = config.Origins;
      assert.equal(config.Origins.length, 2);
      // Prod's client certificate for the origin: its own test, below.
      const { OriginMtlsConfig: _mtls, ...custom } = origin.CustomOriginConfig;
      assert.deepEqual(custom, {
        OriginProtocolPolicy: 'https-only',
        OriginSSLProtocols: ['TLSv1.2'],
      });
      const api = config.CacheBehaviors.find((b: Json) => b.PathPattern === `${API_PREFIX}/*`);
      assert.equal(config.CacheBehaviors.length, 2, '/v1/* and the portal');
      assert.equal(api.PathPattern, `${API_PREFIX}/*`);
      for (const behavior of [api, config.DefaultCacheBehavior]) {
        assert.equal(behavior.TargetOriginId, origin.Id);
        assert.equal(behavior.ViewerProtocolPolicy, 'https-only', 'no plain HTTP, not even a redirect');
        assert.deepEqual(new Set(behavior.AllowedMethods), new Set(ALL_METHODS));
        assert.equal(behavior.CachePolicyId, CACHING_DISABLED);
        // With caching disabled, these policies forward Authorization too; Host only to a custom domain.
        assert.equal(behavior.OriginRequestPolicyId, s === prod ? ALL_VIEWER : ALL_VIEWER_EXCEPT_HOST_HEADER);
      }
      assert.equal(api.FunctionAssociations, undefined, '/v1/* goes to the API untouched');
    }
  });

  test('without a custom domain the origin is the execute-api endpoint, which stays on (origin token only)', () => {
    const [origin] = distributionConfig(dev).Origins;
    const [apiId, api] = only(dev.resources, 'AWS::ApiGatewayV2::Api');
    assert.deepEqual(origin.DomainName, {
      // The stage's region is pinned (cdk.json `stages`), so it is written out.
      'Fn::Join': ['', [{ Ref: apiId }, `.execute-api.${dev.region}.`, { Ref: 'AWS::URLSuffix' }]],
    });
    assert.equal(api.Properties?.DisableExecuteApiEndpoint, false);
    assert.equal(ofType(dev.resources, 'AWS::ApiGatewayV2::DomainName').length, 0);
  });

  test('prod: execute-api is off; the origin is the regional custom domain of the same name, mapped to the stage', () => {
    const [apiId, api] = only(prod.resources, 'AWS::ApiGatewayV2::Api');
    // A request sent to <api-id>.execute-api… is refused by API Gateway itself: no function, no throttle bucket.
    assert.equal(api.Properties?.DisableExecuteApiEndpoint, true);
    const [domainId, domain] = only(prod.resources, 'AWS::ApiGatewayV2::DomainName');
    assert.deepEqual((domain.Properties as Json).DomainName, DOMAIN.names[0]);
    assert.deepEqual((domain.Properties as Json).DomainNameConfigurations, [
      {
        CertificateArn: DOMAIN.regionalCertificateArn,
        EndpointType: 'REGIONAL',
        SecurityPolicy: 'TLS_1_2',
      },
    ]);
    const [, mapping] = only(prod.resources, 'AWS::ApiGatewayV2::ApiMapping');
    const [stageId] = only(prod.resources, 'AWS::ApiGatewayV2::Stage');
    assert.deepEqual(mapping.Properties?.ApiId, { Ref: apiId });
    assert.deepEqual(mapping.Properties?.DomainName, { Ref: domainId });
    // The stage by its name, created before the mapping.
    assert.equal(mapping.Properties?.Stage, '$default');
    assert.ok(asArray((mapping as Json).DependsOn).includes(stageId), 'the mapping waits for the stage');
    assert.equal(mapping.Properties?.ApiMappingKey, undefined, 'the whole API, paths unchanged');
    const [origin] = distributionConfig(prod).Origins;
    assert.deepEqual(origin.DomainName, { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
  });

  test('prod: the regional domain takes only CloudFront, by mutual TLS: its truststore, and the client certificate CloudFront presents', () => {
    // Without it the domain answers anyone who calls its d-… target with the right Host: refused by the
    // origin token inside the functions, but only after taking its share of a throttle bucket.
    const [, domain] = only(prod.resources, 'AWS::ApiGatewayV2::DomainName');
    assert.deepEqual((domain.Properties as Json).MutualTlsAuthentication, {
      TruststoreUri: 's3://payments-example-truststore/origin/ca.pem',
      TruststoreVersion: DOMAIN.originMtls.truststoreVersion,
    });
    const origins = distributionConfig(prod).Origins;
    // The API's origin first (the override names Origins.0), the portal's bucket after it.
    assert.equal(origins.length, 2);
    assert.ok(origins[0].CustomOriginConfig, "Origins.0 is the API's");
    assert.deepEqual(origins[0].CustomOriginConfig.OriginMtlsConfig, {
      ClientCertificateArn: DOMAIN.originMtls.clientCertificateArn,
    });
    // A stage without a domain has no regional domain to protect.
    assert.equal(distributionConfig(dev).Origins[0].CustomOriginConfig.OriginMtlsConfig, undefined);
    // Prod refuses to synthesize without it, in one line.
    const { originMtls: _dropped, ...withoutMtls } = DOMAIN;
    assert.throws(
      () =>
        new PaymentsGatewayStack(newApp(), 'ProdWithoutMtls', {
          ...stageProps('prod'),
          domain: { ...withoutMtls, names: [...DOMAIN.names] },
        }),
      /^SynthRefusal: Stage prod needs mutual TLS to its origin: pass -c originClientCertificateArn=/,
    );
  });

  test('adds X-Origin-Verify from the origin-token secret; each function of the chain reads it, the fallback does not', () => {
    for (const s of [dev, prod]) {
      const [origin] = distributionConfig(s).Origins;
      const [header] = origin.OriginCustomHeaders;
      assert.equal(header.HeaderName, ORIGIN_VERIFY_HEADER);
      const [secretId, secret] = ofType(s.resources, 'AWS::SecretsManager::Secret').find(([, r]) =>
        String(r.Properties?.Name).endsWith('/origin-verify'),
      ) ?? [undefined, undefined];
      assert.ok(secretId && secret, 'an origin-token secret');
      // A dynamic reference: CloudFormation reads the value at deploy; the template never holds it.
      assert.deepEqual(header.HeaderValue, {
        'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:token::}}']],
      });
      const generator = (secret.Properties as Json).GenerateSecretString;
      assert.equal(generator.GenerateStringKey, 'token');
      assert.ok(generator.PasswordLength >= 32);
      for (const fn of new Set(routes.map((route) => route.fn))) {
        const [, p] = functionNamed(s, `api/${fn}`);
        assert.deepEqual(p.Environment.Variables.ORIGIN_VERIFY_SECRET_ID, { Ref: secretId }, fn);
      }
      const [, fallback] = functionNamed(s, 'api/fallback');
      assert.equal(fallback.Environment.Variables.ORIGIN_VERIFY_SECRET_ID, undefined);
    }
  });

  test('without a custom domain: *.cloudfront.net, its default certificate (TLSv1 floor acknowledged)', () => {
    const config = distributionConfig(dev);
    assert.equal(config.Aliases, undefined);
    assert.equal(config.ViewerCertificate, undefined);
    assert.match(
      JSON.stringify(dev.outputs.ApiUrl?.Value),
      /"https:\/\/",\{"Fn::GetAtt":\["\w+","DomainName"\]\},"\/v1"/,
    );
  });

  test('with a custom domain: its names, its us-east-1 certificate, TLSv1.2_2021 over SNI, no acknowledgment', () => {
    const config = distributionConfig(prod);
    assert.deepEqual(config.Aliases, DOMAIN.names);
    assert.deepEqual(config.ViewerCertificate, {
      AcmCertificateArn: DOMAIN.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    assert.equal(prod.outputs.ApiUrl?.Value, `https://${DOMAIN.names[0]}${API_PREFIX}`);
    const acknowledged = prodStack.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:acknowledged-rules'))
      .flatMap((m) => Object.keys(m.data as Record<string, string>));
    assert.ok(!acknowledged.includes('AwsSolutions-CFR4'));
  });

  test('cdk-nag AwsSolutions: no unacknowledged finding on either stage or its web ACL stack', () => {
    const report = nagChecks(app).validateScope(app);
    const findings = report.violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    assert.deepEqual(findings, []);
  });

  test('the custom domain comes from -c domainName, -c certificateArn and -c regionalCertificateArn, all or none', () => {
    const withContext = (context: Record<string, string>) => domainFromContext(new App({ context }).node);
    const certificates = {
      certificateArn: DOMAIN.certificateArn,
      regionalCertificateArn: DOMAIN.regionalCertificateArn,
    };
    assert.equal(withContext({}), undefined);
    assert.deepEqual(withContext({ domainName: 'api.a.example, api.b.example', ...certificates }), {
      names: ['api.a.example', 'api.b.example'],
      ...certificates,
    });
    assert.throws(() => withContext({ domainName: 'api.a.example' }), /give all three, or none/);
    // Mutual TLS to the origin: the client certificate (us-east-1) and the truststore, both or none.
    const mtls = {
      originClientCertificateArn: DOMAIN.originMtls.clientCertificateArn,
      originTruststoreUri: DOMAIN.originMtls.truststoreUri,
    };
    assert.deepEqual(withContext({ domainName: 'api.a.example', ...certificates, ...mtls }), {
      names: ['api.a.example'],
      ...certificates,
      originMtls: {
        clientCertificateArn: DOMAIN.originMtls.clientCertificateArn,
        truststoreUri: DOMAIN.originMtls.truststoreUri,
      },
    });
    assert.throws(
      () =>
        withContext({
          domainName: 'api.a.example',
          ...certificates,
          originClientCertificateArn: mtls.originClientCertificateArn,
        }),
      /give both, or none/,
    );
    assert.throws(
      () =>
        withContext({
          domainName: 'api.a.example',
          ...certificates,
          ...mtls,
          originClientCertificateArn: DOMAIN.certificateArn.replace('us-east-1', 'eu-west-1'),
        }),
      /"originClientCertificateArn" must be an ACM certificate in us-east-1/,
    );
    assert.throws(
      () =>
        withContext({ domainName: 'api.a.example', ...certificates, ...mtls, originTruststoreUri: 'ca.pem' }),
      /"originTruststoreUri" must be s3:\/\/<bucket>\/<key>/,
    );
    assert.throws(
      () => withContext({ domainName: 'api.a.example', certificateArn: DOMAIN.certificateArn }),
      /give all three, or none/,
    );
    assert.throws(
      () =>
        withContext({
          domainName: 'api.a.example',
          ...certificates,
          certificateArn: DOMAIN.certificateArn.replace('us-east-1', 'eu-west-1'),
        }),
      /us-east-1/,
    );
    // The API's certificate must be in the stage's region (eu-west-1 for prod in cdk.json).
    assert.throws(
      () =>
        new PaymentsGatewayStack(newApp(), 'ProdWrongRegion', {
          ...stageProps('prod'),
          domain: { ...DOMAIN, names: [...DOMAIN.names], regionalCertificateArn: DOMAIN.certificateArn },
        }),
      /"regionalCertificateArn" must be an ACM certificate in the stage's region eu-west-1, not us-east-1/,
    );
  });
});

describe('the business portal', () => {
  test('is a private bucket behind the same distribution and web ACL, at /portal*, through origin access control', () => {
    for (const s of [dev, prod]) {
      const config = distributionConfig(s);
      const [bucketId, bucket] = only(s.resources, 'AWS::S3::Bucket');
      assert.deepEqual((bucket.Properties as Json).PublicAccessBlockConfiguration, {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      const portal = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/portal*');
      assert.ok(portal, 'a /portal* behaviour');
      const origin = config.Origins.find((o: Json) => o.Id === portal.TargetOriginId);
      assert.deepEqual(origin.DomainName, { 'Fn::GetAtt': [bucketId, 'RegionalDomainName'] });
      assert.ok(origin.OriginAccessControlId, 'origin access control');
      assert.deepEqual(new Set(portal.AllowedMethods), new Set(['GET', 'HEAD']));
      assert.equal(portal.ViewerProtocolPolicy, 'redirect-to-https');
      assert.equal(portal.Compress, true);
      // The same web ACL as the API: one distribution.
      assert.ok(config.WebACLId);
      // Only CloudFront reads it, as this distribution.
      const [, policy] = only(s.resources, 'AWS::S3::BucketPolicy');
      const reads = (policy.Properties as Json).PolicyDocument.Statement.filter(
        (st: Json) => st.Effect === 'Allow',
      );
      assert.deepEqual(
        reads.map((st: Json) => st.Principal),
        [{ Service: 'cloudfront.amazonaws.com' }],
      );
    }
  });

  test('answers with the portal’s Content-Security-Policy and security headers', () => {
    const config = distributionConfig(dev);
    const portal = config.CacheBehaviors.find((b: Json) => b.PathPattern === '/portal*');
    // The API's behaviours have a policy of their own (HSTS and a deny-all CSP): the portal's is its own.
    const found = ofType(dev.resources, 'AWS::CloudFront::ResponseHeadersPolicy').find(
      ([id]) => portal.ResponseHeadersPolicyId?.Ref === id,
    );
    assert.ok(found, 'the /portal* behaviour has a response headers policy of the stack');
    const [, policy] = found;
    const security = (policy.Properties as Json).ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    assert.equal(security.ContentSecurityPolicy.ContentSecurityPolicy, PORTAL_CSP);
    assert.equal(security.FrameOptions.FrameOption, 'DENY');
    assert.equal(security.ReferrerPolicy.ReferrerPolicy, 'no-referrer');
    assert.equal(security.ContentTypeOptions.Override, true);
  });

  test('its files go to the bucket, under portal/, from a stack of their own', () => {
    const content = assembly.getStackArtifact(`${devStack.artifactId}-portal`).template
      .Resources as Resources;
    const [, deployment] = only(content, 'Custom::CDKBucketDeployment');
    assert.equal((deployment.Properties as Json).DestinationBucketKeyPrefix, 'portal/');
    assert.deepEqual((deployment.Properties as Json).DistributionPaths, ['/portal*']);
  });
});

describe('edge alarms (us-east-1)', () => {
  const alarmsOf = (s: Synthesized) => {
    const artifact = assembly.getStackArtifact(`${s.name}-edge-alarms`);
    return { artifact, resources: artifact.template.Resources as Resources };
  };
  const metricsOf = (alarm: Json): Json[] =>
    (alarm.Properties.Metrics ?? []).filter((m: Json) => m.MetricStat);

  test("CloudFront's 5xx rate and WAF's blocked rate alarm in us-east-1, after the API's stack", () => {
    for (const s of [dev, prod]) {
      const { artifact, resources } = alarmsOf(s);
      assert.equal(artifact.environment.region, 'us-east-1');
      assert.ok(artifact.dependencies.map((d) => d.id).includes(s.name), 'deployed after the API stack');
      const alarms = ofType(resources, 'AWS::CloudWatch::Alarm');
      const [topicId] = only(resources, 'AWS::SNS::Topic');
      const byNamespace = (namespace: string) => {
        const found = alarms.filter(([, a]) =>
          metricsOf(a).some((m) => m.MetricStat.Metric.Namespace === namespace),
        );
        assert.equal(found.length, 1, namespace);
        return (found[0] as [string, Json])[1];
      };
      const cloudFront = byNamespace('AWS/CloudFront');
      const rate = metricsOf(cloudFront).find((m) => m.MetricStat.Metric.MetricName === '5xxErrorRate');
      const distributionId = rate.MetricStat.Metric.Dimensions.find(
        (d: Json) => d.Name === 'DistributionId',
      ).Value;
      // The API stack's output, read when this stack is deployed.
      const { StackName, Region, OutputName } = distributionId['Fn::GetStackOutput'];
      assert.deepEqual([StackName, Region], [s.name, s.region]);
      assert.deepEqual(s.outputs[OutputName]?.Value, {
        Ref: only(s.resources, 'AWS::CloudFront::Distribution')[0],
      });
      const waf = byNamespace('AWS/WAFV2');
      const blocked = metricsOf(waf).find((m) => m.MetricStat.Metric.MetricName === 'BlockedRequests');
      assert.deepEqual(
        new Set(blocked.MetricStat.Metric.Dimensions),
        new Set([
          { Name: 'WebACL', Value: webAcl(s).Name },
          { Name: 'Rule', Value: 'ALL' },
        ]),
      );
      for (const alarm of [cloudFront, waf]) {
        assert.deepEqual(alarm.Properties.AlarmActions, [{ Ref: topicId }]);
        assert.equal(alarm.Properties.EvaluationPeriods, 2);
        assert.match(
          alarm.Properties.Metrics.find((m: Json) => m.ReturnData !== false).Expression,
          /^IF\(.* >= 100,/,
          'a rate only over enough requests',
        );
      }
    }
  });

  test("the topic there reaches the stage's subscribers and admits CloudWatch for the stage's alarms", () => {
    const { resources } = alarmsOf(prod);
    const subscriptions = ofType(resources, 'AWS::SNS::Subscription').map(([, r]) => r.Properties);
    assert.deepEqual(
      subscriptions.map((p) => [p?.Protocol, p?.Endpoint]),
      PROD_REQUIRED.alarmSubscribers.emails.map((email) => ['email', email]),
    );
    const [, policy] = only(resources, 'AWS::SNS::TopicPolicy');
    const publish = (policy.Properties as Json).PolicyDocument.Statement.find(
      (st: Json) => st.Sid === 'CloudWatchAlarmsPublish',
    );
    assert.match(
      JSON.stringify(publish.Condition.ArnLike['aws:SourceArn']),
      /:cloudwatch:us-east-1:.*:alarm:payments-gateway-prod-\*/,
    );
  });

  test('each certificate alarms in its own region 30 days before its end; no domain, no certificate', () => {
    const expiring = (resources: Resources) =>
      new Map(
        ofType(resources, 'AWS::CloudWatch::Alarm')
          .map(([, alarm]) => alarm.Properties as Json)
          .filter((p) => p.Namespace === 'AWS/CertificateManager')
          .map((p) => {
            assert.equal(p.MetricName, 'DaysToExpiry');
            assert.deepEqual([p.ComparisonOperator, p.Threshold], ['LessThanThreshold', 30]);
            assert.equal(p.Period, 86_400, 'ACM publishes once a day');
            return [p.Dimensions[0].Value, p.AlarmActions];
          }),
      );
    const edgeAlarms = alarmsOf(prod).resources;
    const [edgeTopic] = only(edgeAlarms, 'AWS::SNS::Topic');
    assert.deepEqual(
      expiring(edgeAlarms),
      new Map([
        [DOMAIN.certificateArn, [{ Ref: edgeTopic }]],
        [DOMAIN.originMtls?.clientCertificateArn, [{ Ref: edgeTopic }]],
      ]),
    );
    const [stageTopic] = only(prod.resources, 'AWS::SNS::Topic');
    assert.deepEqual(
      expiring(prod.resources),
      new Map([[DOMAIN.regionalCertificateArn, [{ Ref: stageTopic }]]]),
    );
    assert.equal(expiring(alarmsOf(dev).resources).size + expiring(dev.resources).size, 0);
  });
});

describe('unknown routes', () => {
  test('paths outside /v1 are answered by a CloudFront Function at the viewer request', () => {
    for (const s of [dev, prod]) {
      // The other function is the portal's (its index page).
      const found = ofType(s.resources, 'AWS::CloudFront::Function').find(
        ([, r]) => (r.Properties as Json).FunctionCode === notFoundFunctionCode(),
      );
      assert.ok(found, 'the 404 function');
      const [functionId, fn] = found;
      const p = fn.Properties as Json;
      assert.equal(p.FunctionConfig.Runtime, 'cloudfront-js-2.0');
      assert.equal(p.FunctionCode, notFoundFunctionCode());
      assert.equal(p.AutoPublish, true);
      assert.deepEqual(distributionConfig(s).DefaultCacheBehavior.FunctionAssociations, [
        { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
      ]);
    }
  });

  test("the edge's 404 is the fallback function's, and holds to the API contract", async () => {
    const { handler } = await import('../../functions/api/fallback.ts');
    const { lambdaContext, toApiGatewayEvent } = await import('../../local/lambda-event.ts');
    const contract = new Contract(openApiDocument());
    for (const [method, path] of [
      ['GET', '/wp-admin/setup.php'],
      ['POST', '/'],
      ['DELETE', '/v2/wallets'],
    ] as const) {
      const event = {
        context: { requestId: 'Zm9vYmFyLWNsb3VkZnJvbnQtcmVxdWVzdA==' },
        request: { method, uri: path },
      };
      const edge = runInNewContext(`${notFoundFunctionCode()}\nhandler(event);`, { event }) as Json;
      const fromFallback = (await handler(
        toApiGatewayEvent({ method, url: path, headers: {}, body: Buffer.alloc(0) }, '$default', undefined),
        lambdaContext('fallback') as Parameters<typeof handler>[1],
      )) as APIGatewayProxyStructuredResultV2;
      const edgeBody = JSON.parse(edge.body.data);
      assert.equal(edge.body.encoding, 'text');
      assert.equal(edge.statusCode, fromFallback.statusCode);
      assert.equal(edge.headers['content-type'].value, fromFallback.headers?.['Content-Type']);
      assert.equal(edge.headers['x-request-id'].value, edgeBody.requestId);
      const { requestId: _edgeId, ...edgeRest } = edgeBody;
      const { requestId: _fallbackId, ...fallbackRest } = JSON.parse(fromFallback.body ?? '{}');
      assert.deepEqual(edgeRest, fallbackRest, `${method} ${path}`);
      const headers = new Headers(Object.entries(edge.headers).map(([name, h]) => [name, (h as Json).value]));
      assert.deepEqual(
        contract.violations(method, `https://edge.example${path}`, {
          status: edge.statusCode,
          headers,
          body: edgeBody,
        }),
        [],
      );
    }
  });

  test('unknown routes under /v1 reach a small fallback function (route table only)', () => {
    for (const s of [dev, prod]) {
      const [, fallback] = functionNamed(s, 'api/fallback');
      for (const [, other] of ownFunctions(s.resources)) {
        if (other.Properties?.Description === fallback.Description) continue;
        assert.ok(
          fallback.MemorySize < Number(other.Properties?.MemorySize),
          String(other.Properties?.Description),
        );
      }
    }
  });
});

/** What the tighter limits are for, stated here independently of infra/constructs/gateway-api.ts. */
const tighterRoutes = (settings: Throttles) =>
  new Map([
    ['POST /v1/auth/token', settings.token],
    ...routes
      .filter((route) => route.path.startsWith('/sandbox/'))
      .map((route) => [routeKeyOf(route), settings.sandbox] as const),
    ['$default', settings.unmatched],
  ]);

describe('throttling', () => {
  test('a per-route default for the stage, tighter limits by route key for the token route, the sandbox helpers and $default', () => {
    for (const s of [dev, prod]) {
      const [, stage] = only(s.resources, 'AWS::ApiGatewayV2::Stage');
      const p = stage.Properties as Json;
      assert.deepEqual(p.DefaultRouteSettings, {
        ThrottlingRateLimit: s.settings.route.rateLimit,
        ThrottlingBurstLimit: s.settings.route.burstLimit,
      });
      const expected = tighterRoutes(s.settings);
      assert.deepEqual(
        p.RouteSettings,
        Object.fromEntries(
          [...expected].map(([key, limits]) => [
            key,
            { ThrottlingRateLimit: limits.rateLimit, ThrottlingBurstLimit: limits.burstLimit },
          ]),
        ),
      );
      const dependsOn = asArray((stage as Json).DependsOn) as string[];
      for (const [key, limits] of expected) {
        const { route: stageDefault } = s.settings;
        assert.ok(
          Number(limits.rateLimit) < Number(stageDefault.rateLimit),
          `${key} is tighter than the default`,
        );
        assert.ok(
          Number(limits.burstLimit) < Number(stageDefault.burstLimit),
          `${key} bursts less than the default`,
        );
        const route = ofType(s.resources, 'AWS::ApiGatewayV2::Route').find(
          ([, r]) => r.Properties?.RouteKey === key,
        );
        assert.ok(route, `a route ${key}`);
        assert.ok(dependsOn.includes(route[0]), `the stage is written after ${key} exists`);
      }
    }
  });

  test('docs/production.md states every limit of both stages', () => {
    const readme = readFileSync(new URL('../../docs/production.md', import.meta.url), 'utf8');
    const rps = (limits: { rateLimit?: number; burstLimit?: number }) =>
      `${limits.rateLimit} rps, burst ${limits.burstLimit}`;
    const per5 = (n: number) => `${n.toLocaleString('en-US')} / 5 min`;
    const [d, p] = [stageSettings('dev').throttle, stageSettings('prod').throttle];
    for (const row of [
      `| Each route (the stage default) | ${rps(d.route)} | ${rps(p.route)} |`,
      `| \`POST /v1/auth/token\` | ${rps(d.token)} | ${rps(p.token)} |`,
      `| Each sandbox helper (\`/v1/sandbox/…\`) | ${rps(d.sandbox)} | ${rps(p.sandbox)} |`,
      `| \`$default\` (no route matched) | ${rps(d.unmatched)} | ${rps(p.unmatched)} |`,
      `| Per client IP, all paths (web ACL) | ${per5(d.perIpPer5Minutes)} | ${per5(p.perIpPer5Minutes)} |`,
      `| Per client IP, \`POST /v1/auth/token\` (web ACL) | ${per5(d.tokenPerIpPer5Minutes)} | ${per5(p.tokenPerIpPer5Minutes)} |`,
      `| Per \`x-service-auth\` key, \`POST /v1/auth/token\` (web ACL) | ${per5(d.tokenPerKeyPer5Minutes)} | ${per5(p.tokenPerKeyPer5Minutes)} |`,
    ]) {
      assert.ok(readme.includes(row), `docs/production.md row: ${row}`);
    }
  });
});
