// What the payment tests share: funded own wallets, payments submitted through the gateway and waited
// for until their records settle, balances and transactions read from the stack's ledger, ledger
// accounts of outsiders (a beneficiary's CRYPTO destination) opened with the local friendbot, and the
// records GET /transactions lists, every page walked.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Asset, Horizon, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { config } from '../../lib/config.ts';
import { type ApiResponse, as, type Caller, pagesAt } from './api.ts';
import { activationDone } from './fixtures.ts';
import { recordPendingWithoutOutbox } from './wallet-records.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const horizon = () => new Horizon.Server(config().HORIZON_URL_SANDBOX, { allowHttp: true });

export interface OwnWallet {
  id: string;
  publicKey: string;
}

/** An own wallet of `assetCode`, open on the ledger, funded with `amount` when given. */
export async function ownWallet(
  caller: Caller,
  assetCode: string,
  amount?: number,
  walletName = `Own ${assetCode}`,
): Promise<OwnWallet> {
  const created = await as(caller, '/wallets', {
    method: 'POST',
    body: { walletName, assetCode, ownAccount: true },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await activationDone(caller, created.body.id);
  if (amount !== undefined) {
    const funded = await as(caller, `/sandbox/wallets/${created.body.id}/fund`, {
      method: 'POST',
      headers: { 'Idempotency-Key': randomUUID() },
      body: { assetCode, amount },
    });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
  }
  return { id: created.body.id, publicKey: created.body.publicKey };
}

/**
 * An own USDC wallet whose ledger account is not open yet, and the activation that opens it (with its
 * reserves and nothing else). Acceptance cannot check what it can spend (spendable.ts leaves a wallet the
 * ledger does not show to the ledger), so a payment from it is accepted, waits for the account, and then
 * fails at the ledger: how a payment that was spendable at acceptance and is not by execution ends.
 */
export async function unopenedWallet(caller: Caller) {
  const scope = { environment: 'sandbox' as const, associationId: caller.tenant.associationId };
  const usdc = (await as(caller, '/assets/USDC')).body;
  const wallet = await recordPendingWithoutOutbox(scope, {
    assetCode: 'USDC',
    assetIssuer: usdc.assetIssuer,
  });
  const { activateWallet } = await import('../../lib/wallets/activation.ts');
  const open = () =>
    activateWallet(
      { ...scope, walletId: wallet.walletId, requestedAt: new Date().toISOString() },
      new Date(),
    );
  return { id: wallet.walletId, publicKey: wallet.publicKey, open };
}

/** Submits a payment: the answer as it came. */
export const submit = (caller: Caller, route: string, body: Record<string, unknown>): Promise<ApiResponse> =>
  as(caller, `/payments/${route}`, { method: 'POST', body });

/** An off-ramp's body: `walletId` pays the payee (beneficiary and destination ids) on `quoteId`, in USDC. */
export const offrampBody = (
  walletId: string,
  payee: { beneficiaryId: string; paymentDestinationId: string },
  quoteId: string,
  toRef: string,
) => ({
  transactionId: randomUUID(),
  walletId,
  ...payee,
  quoteId,
  sendingAssetCode: 'USDC',
  purpose: 'FAMILY_SUPPORT',
  sourceOfFunds: 'SALARY',
  toRef,
});

/** Submits a payment that must be accepted: its record id. */
export async function accepted(
  caller: Caller,
  route: string,
  body: Record<string, unknown>,
): Promise<string> {
  const answer = await submit(caller, route, body);
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  assert.equal(answer.body.isIdempotent, false);
  return answer.body.transactionRecordId;
}

/** Waits until the record leaves `initiated`, and returns it. */
// biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
export async function settled(caller: Caller, transactionRecordId: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await as(caller, `/transactions/${transactionRecordId}`);
    assert.equal(status, 200, JSON.stringify(body));
    if (body.status !== 'initiated') return body;
    assert.ok(Date.now() < deadline, `transaction ${transactionRecordId} did not settle in time`);
    await pause(100);
  }
}

/** Balances of a ledger account by asset code (`XLM` for native), as Horizon prints them. */
export async function balancesOf(publicKey: string): Promise<Record<string, string>> {
  const account = await horizon().loadAccount(publicKey);
  return Object.fromEntries(
    account.balances.map((line) => [
      line.asset_type === 'native' ? 'XLM' : (line as { asset_code: string }).asset_code,
      line.balance,
    ]),
  );
}

/** The payment-like operations of a landed transaction, as Horizon lists them. */
export async function operationsOf(hash: string) {
  const page = await horizon().operations().forTransaction(hash).limit(200).call();
  return page.records;
}

/** An outsider's ledger account (friendbot), holding trustlines for the given registry assets. */
export async function outsiderAccount(caller: Caller, assetCodes: string[]): Promise<Keypair> {
  const keys = Keypair.random();
  const opened = await fetch(`${config().HORIZON_URL_SANDBOX}/friendbot?addr=${keys.publicKey()}`);
  assert.equal(opened.status, 200, await opened.text());
  const server = horizon();
  const builder = new TransactionBuilder(await server.loadAccount(keys.publicKey()), {
    fee: '100',
    networkPassphrase: config().NETWORK_PASSPHRASE_SANDBOX,
  }).setTimeout(60);
  for (const code of assetCodes) {
    const { body } = await as(caller, `/assets/${code}`);
    builder.addOperation(Operation.changeTrust({ asset: new Asset(code, body.assetIssuer) }));
  }
  const tx = builder.build();
  tx.sign(keys);
  await server.submitTransaction(tx);
  return keys;
}

/** The pages GET /transactions answers for `query`, walked with its cursors to the end. */
export const pagesOf = (caller: Caller, query = 'limit=100') => pagesAt(caller, '/transactions', query);

/** Every record GET /transactions lists for `query`, newest first. */
// biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
export const listed = async (caller: Caller, query?: string): Promise<any[]> =>
  (await pagesOf(caller, query)).flat();

/** Polls a record until `done` holds of it (a ramp's record moves with its provider). */
export async function recordWhen(
  caller: Caller,
  transactionRecordId: string,
  // biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
  done: (record: any) => boolean,
  timeoutMs = 40_000,
  // biome-ignore lint/suspicious/noExplicitAny: as above.
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const read = await as(caller, `/transactions/${transactionRecordId}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    if (done(read.body)) return read.body;
    if (Date.now() > deadline)
      throw new Error(`Record ${transactionRecordId} stayed ${JSON.stringify(read.body)}`);
    await pause(200);
  }
}
