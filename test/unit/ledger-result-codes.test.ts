import assert from 'node:assert/strict';
import { xdr } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import {
  classifyResultCodes,
  classifySubmissionError,
  feeChargedFromXdr,
  operationResultsFromXdr,
  resultCodesFromXdr,
} from '../../lib/ledger/result-codes.ts';

const horizonError = (status: number, data: unknown) =>
  Object.assign(new Error(`Request failed with status code ${status}`), { response: { status, data } });

/** A fee bump's result around its inner transaction's, as a landed fee-bumped transaction has it. */
function feeBumpResult(inner: xdr.InnerTransactionResultResult): xdr.TransactionResult {
  const pair = new xdr.InnerTransactionResultPair({
    transactionHash: new Uint8Array(32) as never,
    result: new xdr.InnerTransactionResult({
      feeCharged: 100n,
      result: inner,
      ext: xdr.InnerTransactionResultExt.fromXdrObject({ v: 0 }),
    }),
  });
  return new xdr.TransactionResult({
    feeCharged: 200n,
    result:
      inner.type === 'txSuccess'
        ? xdr.TransactionResultResult.txFeeBumpInnerSuccess(pair)
        : xdr.TransactionResultResult.txFeeBumpInnerFailed(pair),
    ext: xdr.TransactionResultExt.fromXdrObject({ v: 0 }),
  });
}

describe('ledger result codes', () => {
  it('fails for good on operation errors, naming the first failing operation', () => {
    const verdict = classifyResultCodes({
      transaction: 'tx_failed',
      operations: ['op_success', 'op_underfunded'],
    });
    assert.deepEqual(verdict, {
      retryable: false,
      action: 'fail',
      errorCode: 'LEDGER_OP_UNDERFUNDED',
      failureReason: 'The source wallet does not hold enough of the asset.',
    });
    for (const op of [
      'op_no_trust',
      'op_line_full',
      'op_no_destination',
      'op_low_reserve',
      'op_already_exists',
      'op_under_dest_min',
      'op_too_few_offers',
    ]) {
      const v = classifyResultCodes({ transaction: 'tx_failed', operations: [op] });
      assert.equal(v.retryable, false, op);
      assert.equal(v.errorCode, `LEDGER_${op.toUpperCase()}`);
      assert.ok(v.failureReason.length > 10 && !v.failureReason.includes('(op_'), op);
    }
  });

  it('reads a fee bump whose inner transaction failed', () => {
    const verdict = classifyResultCodes({
      transaction: 'tx_fee_bump_inner_failed',
      inner_transaction: 'tx_failed',
      operations: ['op_no_trust'],
    });
    assert.equal(verdict.errorCode, 'LEDGER_OP_NO_TRUST');
    assert.equal(verdict.action, 'fail');
  });

  it('fails for good on terminal transaction errors', () => {
    for (const tx of [
      'tx_bad_auth',
      'tx_bad_auth_extra',
      'tx_insufficient_balance',
      'tx_no_source_account',
      'tx_malformed',
    ]) {
      const v = classifyResultCodes({ transaction: tx });
      assert.equal(v.action, 'fail', tx);
      assert.equal(v.retryable, false);
      assert.equal(v.errorCode, `LEDGER_${tx.toUpperCase()}`);
    }
    assert.match(
      classifyResultCodes({ transaction: 'tx_weird_new_code' }).failureReason,
      /tx_weird_new_code/,
    );
  });

  it('rebuilds when the envelope can never land', () => {
    for (const tx of ['tx_bad_seq', 'tx_insufficient_fee', 'tx_too_late']) {
      const v = classifyResultCodes({ transaction: tx });
      assert.equal(v.action, 'rebuild', tx);
      assert.equal(v.retryable, true);
    }
  });

  it('treats timeouts, 5xx, rate limits and dropped connections as unknown outcomes', () => {
    const cases: [unknown, string][] = [
      [horizonError(504, { type: 'https://stellar.org/horizon-errors/timeout' }), 'LEDGER_TIMEOUT'],
      [horizonError(503, {}), 'LEDGER_UNAVAILABLE'],
      [horizonError(500, {}), 'LEDGER_UNAVAILABLE'],
      [horizonError(429, {}), 'LEDGER_RATE_LIMITED'],
      [new Error('timeout of 10000ms exceeded'), 'LEDGER_TIMEOUT'],
      [Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }), 'LEDGER_UNREACHABLE'],
    ];
    for (const [error, errorCode] of cases) {
      const v = classifySubmissionError(error);
      assert.equal(v.action, 'lookup', errorCode);
      assert.equal(v.retryable, true);
      assert.equal(v.errorCode, errorCode);
    }
  });

  it("retries later on stellar-core's TRY_AGAIN_LATER (the local ledger's 503 with tx_try_again_later)", () => {
    const busy = horizonError(503, {
      type: 'https://stellar.org/horizon-errors/transaction_try_again_later',
      extras: { tx_status: 'TRY_AGAIN_LATER', result_codes: { transaction: 'tx_try_again_later' } },
    });
    assert.deepEqual(classifySubmissionError(busy), {
      retryable: true,
      action: 'lookup',
      errorCode: 'LEDGER_TX_TRY_AGAIN_LATER',
      failureReason: 'The ledger is busy with another transaction of the same account; try again shortly.',
    });
  });

  it('classifies a Horizon transaction_failed answer by its result codes', () => {
    const error = horizonError(400, {
      type: 'https://stellar.org/horizon-errors/transaction_failed',
      extras: { result_codes: { transaction: 'tx_bad_seq' } },
    });
    assert.equal(classifySubmissionError(error).action, 'rebuild');
    const failed = horizonError(400, {
      extras: { result_codes: { transaction: 'tx_failed', operations: ['op_underfunded'] } },
    });
    assert.equal(classifySubmissionError(failed).errorCode, 'LEDGER_OP_UNDERFUNDED');
    const malformed = horizonError(400, { type: 'https://stellar.org/horizon-errors/transaction_malformed' });
    assert.equal(classifySubmissionError(malformed).action, 'fail');
  });

  it('reads Horizon-style codes out of a result XDR, fee bumps included', () => {
    const ext = xdr.TransactionResultExt.fromXdrObject({ v: 0 });
    const failed = new xdr.TransactionResult({
      feeCharged: 100n,
      result: xdr.TransactionResultResult.txFailed([
        xdr.OperationResult.opInner(
          xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountSuccess()),
        ),
        xdr.OperationResult.opInner(
          xdr.OperationResultTr.createAccount(xdr.CreateAccountResult.createAccountAlreadyExist()),
        ),
        xdr.OperationResult.opNoAccount(),
      ]),
      ext,
    });
    assert.deepEqual(resultCodesFromXdr(failed.toXdr('base64')), {
      transaction: 'tx_failed',
      operations: ['op_success', 'op_already_exists', 'op_no_source_account'],
    });

    const bumped = feeBumpResult(
      xdr.InnerTransactionResultResult.txFailed([
        xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentUnderfunded())),
      ]),
    );
    const codes = resultCodesFromXdr(bumped.toXdr('base64'));
    assert.deepEqual(codes, {
      transaction: 'tx_fee_bump_inner_failed',
      inner_transaction: 'tx_failed',
      operations: ['op_underfunded'],
    });
    assert.equal(classifyResultCodes(codes).errorCode, 'LEDGER_OP_UNDERFUNDED');

    const badSeq = new xdr.TransactionResult({
      feeCharged: 0n,
      result: xdr.TransactionResultResult.txNoAccount(),
      ext,
    });
    assert.deepEqual(resultCodesFromXdr(badSeq.toXdr('base64')), { transaction: 'tx_no_source_account' });
  });

  it('reads the operation results out of a result XDR, a fee bump’s inner ones included', () => {
    const ext = xdr.TransactionResultExt.fromXdrObject({ v: 0 });
    const results = [
      xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess())),
      xdr.OperationResult.opInner(
        xdr.OperationResultTr.changeTrust(xdr.ChangeTrustResult.changeTrustSuccess()),
      ),
    ];
    const plain = new xdr.TransactionResult({
      feeCharged: 200n,
      result: xdr.TransactionResultResult.txSuccess(results),
      ext,
    });
    const bumped = feeBumpResult(xdr.InnerTransactionResultResult.txSuccess(results));
    const encoded = (list: xdr.OperationResult[]) => list.map((result) => result.toXdr('base64'));
    for (const tx of [plain, bumped])
      assert.deepEqual(encoded(operationResultsFromXdr(tx.toXdr('base64'))), encoded(results));

    const tooLate = new xdr.TransactionResult({
      feeCharged: 0n,
      result: xdr.TransactionResultResult.txTooLate(),
      ext,
    });
    assert.deepEqual(operationResultsFromXdr(tooLate.toXdr('base64')), []);
  });

  it('reads the fee charged out of a result XDR as the SDK decodes it, fee bumps and large fees included', () => {
    const ext = xdr.TransactionResultExt.fromXdrObject({ v: 0 });
    const results = [
      xdr.OperationResult.opInner(xdr.OperationResultTr.payment(xdr.PaymentResult.paymentSuccess())),
    ];
    const landed = [
      new xdr.TransactionResult({
        feeCharged: 200n,
        result: xdr.TransactionResultResult.txSuccess(results),
        ext,
      }),
      new xdr.TransactionResult({
        feeCharged: 9_007_199_254_740_993n, // past 2^53: no float on the way
        result: xdr.TransactionResultResult.txFailed(results),
        ext,
      }),
      feeBumpResult(xdr.InnerTransactionResultResult.txSuccess(results)),
    ];
    for (const tx of landed) {
      const encoded = tx.toXdr('base64');
      const decoded = xdr.TransactionResult.fromXdr(encoded, 'base64').feeCharged.toString();
      assert.equal(feeChargedFromXdr(encoded), decoded);
    }
    assert.deepEqual(
      landed.map((tx) => feeChargedFromXdr(tx.toXdr('base64'))),
      ['200', '9007199254740993', '200'],
    );
    assert.throws(() => feeChargedFromXdr('AAAA'), /shorter than its fee/);
  });
});
