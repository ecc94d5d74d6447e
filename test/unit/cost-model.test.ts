// The bench's cost model (bench/cost-model.ts) is arithmetic on AWS's prices (bench/aws-prices.ts): known
// counts give known dollars, each service's line alone and the floor beside them.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { prices } from '../../bench/aws-prices.ts';
import {
  billedCalls,
  floorOf,
  monthlyAt,
  offrampFloorOf,
  type PaymentCounts,
  PLATFORM_LOG_BYTES_PER_INVOCATION,
  paymentCost,
  totalOf,
} from '../../bench/cost-model.ts';
import { stageSettings } from '../../infra/stage.ts';

const none: PaymentCounts = {
  calls: {},
  writeUnits: 0,
  readUnits: 0,
  functions: {},
  apiRequests: 0,
  logBytes: 0,
};
const dollars = (counts: Partial<PaymentCounts>, memoryMb = 1024) =>
  Object.fromEntries(
    paymentCost({ ...none, ...counts }, () => memoryMb).map((l) => [
      `${l.service}: ${l.item}`,
      l.usdPerMillion,
    ]),
  );
const close = (actual: number | undefined, expected: number) =>
  assert.ok(Math.abs((actual ?? Number.NaN) - expected) < 1e-9, `${actual} is not ${expected}`);

describe('the cost model', () => {
  it('prices DynamoDB units at the on-demand rates: 10 write and 4 read units a payment', () => {
    const cost = dollars({ writeUnits: 10, readUnits: 4 });
    close(cost['DynamoDB: writes'], 10 * 0.625);
    close(cost['DynamoDB: reads'], 4 * 0.125);
    assert.equal(prices.dynamoWriteRequestUnit.usd, 0.625);
  });

  it('bills Lambda by invocation and by GB-second at the configured memory, each invocation at least 1 ms', () => {
    // 2 invocations of 1000 ms at 512 MB = 1 GB-s; 1 of 0.2 ms at 1024 MB = 1 ms billed = 0.001 GB-s.
    const cost = dollars(
      {
        functions: {
          'api/payments': { invocations: 2, meanMs: 1000 },
          'streams/outbox': { invocations: 1, meanMs: 0.2 },
        },
      },
      512,
    );
    close(cost['Lambda: invocations'], 3 * 0.2);
    close(cost['Lambda: duration'], (1 + 0.0005) * 0.0000133334 * 1_000_000);
    // Lambda's own lines of 3 invocations, and 5 % of them traced.
    close(
      cost['CloudWatch: log ingestion'],
      ((3 * PLATFORM_LOG_BYTES_PER_INVOCATION) / 1024 ** 3) * 0.5 * 1_000_000,
    );
    close(cost['X-Ray: traces (default sampling)'], 3 * 0.05 * 5);
  });

  it('counts none of Lambda’s own lines, as production drops them (systemLogLevel WARN)', () => {
    assert.equal(stageSettings('prod').systemLogLevel, 'WARN');
    assert.equal(PLATFORM_LOG_BYTES_PER_INVOCATION, 0);
    assert.equal(stageSettings('dev').systemLogLevel, 'INFO', 'a disposable stage keeps REPORT for sizing');
  });

  it('counts every SQS call a request, and each API request at the edge, the web ACL and API Gateway', () => {
    const cost = dollars({
      calls: { 'SQS.SendMessage': 2, 'SQS.ReceiveMessage': 1.5, 'DynamoDB.GetItem': 7 },
      apiRequests: 1,
      logBytes: 1024 ** 3 / 1_000_000,
    });
    close(cost['SQS: requests'], 3.5 * 0.4);
    close(cost['API Gateway: HTTP API requests'], 1);
    close(cost['CloudFront: HTTPS requests'], 1);
    close(cost['WAF: requests'], 0.6);
    close(cost['CloudWatch: log ingestion'], 0.5);
  });

  it('counts billed calls without DynamoDB Streams or the ledger, with the API request', () => {
    const counts = {
      ...none,
      calls: {
        'DynamoDB.GetItem': 3,
        'DynamoDBStreams.GetRecords': 5,
        'GET /accounts': 3,
        'SQS.SendMessage': 1,
      },
      apiRequests: 1,
    };
    assert.equal(billedCalls(counts), 5);
  });

  it('gives the floor of a P2P payment with one webhook: 11 calls and 5 write units', () => {
    const floor = floorOf({ ...none, functions: { 'api/payments': { invocations: 1, meanMs: 10 } } });
    assert.equal(billedCalls(floor), 11);
    assert.equal(floor.writeUnits, 5);
    assert.equal(floor.functions['api/payments']?.meanMs, 10);
  });

  it('gives the floor of an off-ramp with one webhook: 16 calls and 10 write units, the provider’s notifications as measured', () => {
    const floor = offrampFloorOf({ ...none, functions: { 'api/providers': { invocations: 2, meanMs: 7 } } });
    // 13 AWS calls and the quote, the off-ramp and one notification through the gateway.
    assert.equal(billedCalls(floor), 16);
    assert.equal(floor.writeUnits, 10);
    assert.deepEqual(floor.functions['api/providers'], { invocations: 2, meanMs: 7 });
    // Two notifications measured: both are requests the gateway is billed for.
    assert.equal(offrampFloorOf({ ...none, apiRequests: 4 }).apiRequests, 4);
  });

  it('turns dollars per million into a month at a steady rate', () => {
    close(monthlyAt(1, 10), (2_592_000 * 10) / 1_000_000);
    close(totalOf(paymentCost({ ...none, writeUnits: 1, apiRequests: 1 }, () => 128)), 0.625 + 1 + 1 + 0.6);
  });
});
