// AWS's published on-demand prices the cost model (bench/cost-model.ts) converts the bench's counts with:
// one file, each price with its unit, region and the page it is published on. Region us-east-1 (N.
// Virginia), the lowest tier of each (what a platform of up to a few hundred payments a second pays),
// no free tier, no Savings Plans or reserved capacity.
//
// Written 2026-12-02 (the figures in force since DynamoDB's on-demand price cut of 2024-11-01) and
// checked that day against the published figures this machine could reach (AWS's own pages are not
// reachable from it): DynamoDB's 0.625 / 0.125 USD per million write / read request units, Lambda's Arm
// 0.20 USD per million requests and 0.0000133334 USD per GB-second, and HTTP APIs' 1.00 USD per million
// agree with restatements of AWS's pricing pages; CloudFront, WAF, SQS, CloudWatch and X-Ray are as
// last read on AWS's pages and were not checked again. A price changes here and nowhere else.

export interface Price {
  /** US dollars per `per` units. */
  usd: number;
  per: number;
  unit: string;
  /** The pricing page's title, and what on it. */
  source: string;
}

export const PRICES_REGION = 'us-east-1';
export const PRICES_DATE = '2026-12-02';

const million = 1_000_000;

export const prices = {
  /** Standard table class, on-demand capacity mode. */
  dynamoWriteRequestUnit: {
    usd: 0.625,
    per: million,
    unit: 'write request unit (1 KB written; 2 in a transaction)',
    source: 'Amazon DynamoDB pricing for on-demand capacity: write request units',
  },
  dynamoReadRequestUnit: {
    usd: 0.125,
    per: million,
    unit: 'read request unit (4 KB read strongly consistent; 2 eventually consistent reads)',
    source: 'Amazon DynamoDB pricing for on-demand capacity: read request units',
  },
  /** The functions run on Graviton (infra/constructs/bundled-function.ts: ARM_64). */
  lambdaRequest: {
    usd: 0.2,
    per: million,
    unit: 'invocation',
    source: 'AWS Lambda pricing: requests (Arm)',
  },
  lambdaGbSecond: {
    usd: 0.0000133334,
    per: 1,
    unit: 'GB-second (configured memory × billed duration, Arm, first 7.5 billion GB-s a month)',
    source: 'AWS Lambda pricing: duration (Arm)',
  },
  /** Lambda's own pollers' ReceiveMessage and DeleteMessageBatch are billed as any other request. */
  sqsRequest: {
    usd: 0.4,
    per: million,
    unit: 'standard queue request (each 64 KB chunk of a payload is one)',
    source: 'Amazon SQS pricing: standard queue, requests beyond the first million a month',
  },
  apiGatewayHttpRequest: {
    usd: 1.0,
    per: million,
    unit: 'HTTP API request (each 512 KB is one), first 300 million a month',
    source: 'Amazon API Gateway pricing: HTTP APIs',
  },
  /** The edge every request of /v1 passes first (infra/edge.ts, infra/edge-firewall.ts). */
  cloudFrontHttpsRequest: {
    usd: 0.01,
    per: 10_000,
    unit: 'HTTPS request, United States, Mexico and Canada',
    source: 'Amazon CloudFront pricing: on-demand, HTTPS requests',
  },
  wafRequest: {
    usd: 0.6,
    per: million,
    unit: 'request inspected by a web ACL (the ACL and its rules are monthly, below)',
    source: 'AWS WAF pricing: requests',
  },
  logsIngestedGb: {
    usd: 0.5,
    per: 1,
    unit: 'GB of log lines ingested (Lambda logs, EMF metric lines included)',
    source: 'Amazon CloudWatch pricing: logs, collect (data ingestion), standard class',
  },
  /** EMF lines name metric series; each series is billed by the month, whatever the traffic. */
  metricMonth: {
    usd: 0.3,
    per: 1,
    unit: 'custom metric series a month, first 10,000',
    source: 'Amazon CloudWatch pricing: metrics',
  },
  xrayTrace: {
    usd: 5.0,
    per: million,
    unit: 'trace recorded (functions trace ACTIVE; the default rule samples 1 a second and 5 % beyond)',
    source: 'AWS X-Ray pricing: traces recorded',
  },
} as const satisfies Record<string, Price>;

/** X-Ray's default sampling rule beyond its reservoir of one request a second. */
export const XRAY_SAMPLED_SHARE = 0.05;

/** Dollars for `count` of what `price` prices. */
export const costOf = (price: Price, count: number): number => (count / price.per) * price.usd;
