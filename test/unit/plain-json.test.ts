// Response bodies in plain decimals (lib/http/plain-json.ts): what JSON.stringify writes in exponent
// form, written out in full, and read back as the same number.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { exactNumber, plainJson, plainNumber } from '../../lib/http/plain-json.ts';
import type { TransactionRecord } from '../../lib/payments/repo.ts';
import { toTransactionResource } from '../../lib/payments/responses.ts';
import { eventMetaDataOf } from '../../lib/webhooks/event-data.ts';
import type { EventMessage } from '../../lib/webhooks/event-message.ts';

describe('plain JSON', () => {
  it('writes a number without an exponent, exactly the number it was', () => {
    const cases: [number, string][] = [
      [1e-7, '0.0000001'],
      [5e-7, '0.0000005'],
      [1.2345e-7, '0.00000012345'],
      [-3e-7, '-0.0000003'],
      [0.000001, '0.000001'],
      [0, '0'],
      [1e21, '1000000000000000000000'],
      [123.456, '123.456'],
    ];
    for (const [value, text] of cases) {
      assert.equal(plainNumber(value), text);
      assert.equal(Number(text), value);
    }
  });

  it('writes a body as JSON.stringify does, but for numbers in exponent form', () => {
    const body = { amount: 5e-7, legs: [{ amount: 1e-7 }, { amount: 2.5 }], id: '1e-7', none: null };
    const text = plainJson(body);
    assert.equal(
      text,
      '{"amount":0.0000005,"legs":[{"amount":0.0000001},{"amount":2.5}],"id":"1e-7","none":null}',
    );
    assert.deepEqual(JSON.parse(text), body);
  });
});

describe('amounts written from their decimal text', () => {
  // 18 significant digits: a double keeps 15 to 17 (92233721368.5477583 → 92233721368.54776).
  const LARGE = '92233721368.5477583';

  it('writes a decimal string as a JSON number with every one of its digits', () => {
    assert.equal(plainJson({ amount: exactNumber(LARGE) }), `{"amount":${LARGE}}`);
    assert.equal(plainJson([exactNumber('1000.0000000'), exactNumber('0.0000001')]), '[1000,0.0000001]');
  });

  it('writes a transaction record’s amounts, on the API and in its webhooks, exactly', () => {
    const record = {
      transactionRecordId: '7b0e3f0a-5c1d-4e2f-8a9b-0c1d2e3f4a5b',
      status: 'completed',
      transactionType: 'provider_onramp',
      sendAmount: LARGE,
      originalSendAmount: LARGE,
      receiveAmount: LARGE,
      exchangeRate: '1',
      fee: '0.0000001',
      minReceiveAmount: null,
      sendingAsset: { code: 'ZAR', issuer: null },
      receivingAsset: { code: 'USDC', issuer: 'G' },
      legs: [{ legIndex: 0, sendingAsset: { code: 'USDC', issuer: 'G' }, amount: LARGE }],
      receipt: {
        netAmount: LARGE,
        totalFees: '0.0000001',
        feeCurrency: 'ZAR',
        assetCode: 'USDC',
        reference: 'PG1',
      },
    } as unknown as TransactionRecord;
    const text = plainJson(toTransactionResource(record));
    for (const member of ['sendAmount', 'originalSendAmount', 'receiveAmount'])
      assert.ok(text.includes(`"${member}":${LARGE},`), `${member}: ${text}`);
    assert.ok(text.includes(`"amount":${LARGE}}`), text);
    assert.ok(text.includes('"fee":0.0000001,'), text);
    const meta = plainJson(
      eventMetaDataOf({ itemType: 'transaction', item: { ...record } } as unknown as EventMessage),
    );
    assert.ok(meta.includes(`"netAmount":${LARGE},"totalFees":0.0000001,`), meta);
  });
});
