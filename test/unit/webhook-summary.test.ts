// The line `npm run webhooks:listen` prints under each event (scripts/webhook-summary.ts): a provider's
// on-ramp receipt shows its payout summary, a customer's decision its registration.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { summary } from '../../scripts/webhook-summary.ts';

describe("webhooks:listen's summary line", () => {
  it('shows a provider on-ramp receipt’s payout summary from metaData.data', () => {
    const line = summary({
      source: 'payments',
      data: {
        status: 'completed',
        sendAmount: 1000,
        sendCurrency: 'ZAR',
        receiveAmount: 53.35,
        receiveCurrency: 'USDC',
        type: 'provider_onramp',
        transactionRecordId: 'r-1',
        stellarTxHash: 'h-1',
        connectorId: 'za-bank-onramp-zar-usdc',
        externalReference: 'RCPT-1',
      },
      metaData: {
        environment: 'sandbox',
        data: {
          netAmount: 53.35,
          totalFees: 13,
          feeCurrency: 'ZAR',
          assetCode: 'USDC',
          reference: 'PG3500157514',
        },
      },
    });
    assert.match(line, /^status completed · 1000 ZAR · receives 53\.35 USDC · type provider_onramp · /);
    assert.match(line, / · net 53\.35 USDC · fees 13 ZAR · reference PG3500157514$/);
  });

  it('leaves a payment without a payout summary as it was', () => {
    const line = summary({
      source: 'payments',
      data: {
        status: 'completed',
        sendAmount: 1,
        sendCurrency: 'USDC',
        type: 'p2p',
        transactionRecordId: 'r',
        stellarTxHash: 'h',
      },
      metaData: { environment: 'sandbox' },
    });
    assert.equal(line, 'status completed · 1 USDC · type p2p · transactionRecordId r · stellarTxHash h');
  });

  it('shows a customer’s decision: who, with which connector, the status and the review', () => {
    const line = summary({
      source: 'customers',
      data: {
        customerId: 'lerato-1001',
        connectorId: 'za-bank-onramp-zar-usdc',
        kind: 'individual',
        status: 'VERIFIED',
        review: 1,
        individual: { firstName: 'Lerato' },
      },
    });
    assert.equal(
      line,
      'customer lerato-1001 · connector za-bank-onramp-zar-usdc · individual · status VERIFIED · review 1',
    );
  });
});
