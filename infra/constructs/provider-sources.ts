// Providers' published source ranges (docs/decisions/provider-notifications.md): where a connector's provider publishes the addresses
// its notifications come from, the web ACL blocks the connector's production notification route from
// anywhere else, before the service reads a byte. `-c providerSourceRanges='{"<connectorId>":["<CIDR>",…]}'`
// (or the same object in cdk.json's context); a connector not named is not restricted (its signature still
// is). The sandbox's notifications come from the platform's own simulator or a provider's test systems,
// which publish no ranges: only the production path is restricted.
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { API_PREFIX } from '../../lib/routes.ts';
import { SERVICE_NAME, SynthRefusal } from '../stage.ts';

export type ProviderSourceRanges = Record<string, string[]>;

const CONNECTOR_ID = /^[a-z0-9-]{1,64}$/;
const IPV4_CIDR = /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$/;
const IPV6_CIDR = /^[0-9a-f:]+\/\d{1,3}$/i;

/** The context value, checked: an object (cdk.json) or its JSON text (`-c`). */
export function providerSourceRangesFromContext(node: Construct['node']): ProviderSourceRanges {
  let value: unknown = node.tryGetContext('providerSourceRanges');
  if (value === undefined) return {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw new SynthRefusal(
        'Context "providerSourceRanges" must be a JSON object of connector ids to CIDR lists.',
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SynthRefusal(
      'Context "providerSourceRanges" must be an object of connector ids to CIDR lists.',
    );
  for (const [connectorId, ranges] of Object.entries(value)) {
    if (!CONNECTOR_ID.test(connectorId))
      throw new SynthRefusal(`"providerSourceRanges": ${connectorId} is not a connector id.`);
    if (!Array.isArray(ranges) || ranges.length === 0)
      throw new SynthRefusal(`"providerSourceRanges": ${connectorId} needs a non-empty list of CIDRs.`);
    for (const range of ranges)
      if (typeof range !== 'string' || !(IPV4_CIDR.test(range) || IPV6_CIDR.test(range)))
        throw new SynthRefusal(`"providerSourceRanges": ${String(range)} (${connectorId}) is not a CIDR.`);
  }
  return value as ProviderSourceRanges;
}

/**
 * One rule per connector with published ranges: a request to its production notification route from an
 * address outside them is blocked (403 from the edge). The IP sets are created beside the web ACL.
 */
export function providerSourceRules(
  scope: Construct,
  stage: string,
  ranges: ProviderSourceRanges,
): {
  name: string;
  statement: wafv2.CfnWebACL.StatementProperty;
  action: wafv2.CfnWebACL.RuleActionProperty;
}[] {
  return Object.entries(ranges).map(([connectorId, cidrs], n) => {
    const sets = (['IPV4', 'IPV6'] as const).flatMap((version) => {
      const addresses = cidrs.filter((cidr) => (version === 'IPV4' ? IPV4_CIDR : IPV6_CIDR).test(cidr));
      if (addresses.length === 0) return [];
      const set = new wafv2.CfnIPSet(scope, `ProviderSources${n}${version}`, {
        name: `${SERVICE_NAME}-${stage}-provider-${connectorId}-${version.toLowerCase()}`,
        description: `The source ranges ${connectorId}'s provider publishes for its notifications`,
        scope: 'CLOUDFRONT',
        ipAddressVersion: version,
        addresses,
      });
      return [{ ipSetReferenceStatement: { arn: set.attrArn } }];
    });
    const fromPublished: wafv2.CfnWebACL.StatementProperty =
      sets.length === 1
        ? (sets[0] as wafv2.CfnWebACL.StatementProperty)
        : { orStatement: { statements: sets } };
    return {
      name: `ProviderSources-${connectorId}`,
      statement: {
        andStatement: {
          statements: [
            {
              byteMatchStatement: {
                fieldToMatch: { uriPath: {} },
                positionalConstraint: 'EXACTLY',
                searchString: `${API_PREFIX}/provider-notifications/production/${connectorId}`,
                textTransformations: [
                  { priority: 0, type: 'NORMALIZE_PATH' },
                  { priority: 1, type: 'LOWERCASE' },
                ],
              },
            },
            { notStatement: { statement: fromPublished } },
          ],
        },
      },
      action: { block: {} },
    };
  });
}
