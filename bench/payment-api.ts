// The payment routes as the bench calls them, with the seeded tenant's key and a bearer token: funded own
// wallets (POST /v1/wallets ownAccount true, wait until 'active', POST /v1/sandbox/wallets/{id}/fund with an
// Idempotency-Key), P2P payments between them (POST /v1/payments/p2p/own, 202) and their records
// (GET /v1/transactions/{id}).
import { randomUUID } from 'node:crypto';
import type { LocalStack } from '../local/stack.ts';
import { expectStatus, type HttpClient, tokenHeaders, walletCreator, walletReader } from './latency.ts';

/** USDC: a registry asset every own wallet of the seed can hold (its trustline opens with the account). */
export const PAYMENT_ASSET = 'USDC';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface FundedWallet {
  walletId: string;
  publicKey: string;
}

/** What a payment's 202 says. */
export interface Acceptance {
  transactionRecordId: string;
  status: string;
  intentId: string;
  isIdempotent: boolean;
}

/** The parts of a transaction record the bench reads. */
export interface TransactionView {
  transactionRecordId: string;
  status: 'initiated' | 'completed' | 'failed';
  stellarTxHash: string | null;
  errorCode: string | null;
}

const jsonRequest = (
  stack: LocalStack,
  accessToken: string,
  body: unknown,
  extra: Record<string, string> = {},
) => {
  const text = JSON.stringify(body);
  return {
    body: text,
    headers: {
      ...tokenHeaders(stack, accessToken),
      ...extra,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    },
  };
};

/**
 * An own USDC wallet whose ledger account is open, funded with `amount` from the asset's issuer. Funding
 * answers once its payment is in a closed ledger: on a ledger with a close cadence, the caller closes
 * ledgers meanwhile (or waits a close per funding).
 */
export async function fundedWallet(
  stack: LocalStack,
  client: HttpClient,
  accessToken: string,
  amount: number,
  timeoutMs: number,
): Promise<FundedWallet> {
  const created = await walletCreator(stack, client, accessToken)();
  const read = walletReader(stack, client, accessToken);
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { activationStatus } = await read(created.id);
    if (activationStatus === 'active') break;
    if (activationStatus === 'failed') throw new Error(`wallet ${created.id} failed to activate`);
    if (performance.now() > deadline) throw new Error(`wallet ${created.id} not active in ${timeoutMs} ms`);
    await pause(50);
  }
  const { body, headers } = jsonRequest(
    stack,
    accessToken,
    { assetCode: PAYMENT_ASSET, amount },
    { 'idempotency-key': randomUUID() },
  );
  const funded = JSON.parse(
    await expectStatus(
      client.send(`${stack.baseUrl}/sandbox/wallets/${created.id}/fund`, { method: 'POST', headers, body }),
      200,
    ),
  ) as { status: string };
  if (funded.status !== 'succeeded') throw new Error(`funding of ${created.id} answered ${funded.status}`);
  return { walletId: created.id, publicKey: created.publicKey };
}

export interface P2pPayment {
  from: FundedWallet;
  to: FundedWallet;
  /** Decimal units of PAYMENT_ASSET. */
  amount: number;
  /** The ledger transaction's text memo (at most 28 bytes). */
  memo?: string;
}

/** POST /v1/payments/p2p/own, each call a new transactionId; expects 202 and a new record. */
export function p2pPayer(stack: LocalStack, client: HttpClient, accessToken: string) {
  return async (payment: P2pPayment): Promise<Acceptance> => {
    const { body, headers } = jsonRequest(stack, accessToken, {
      transactionId: randomUUID(),
      walletId: payment.from.walletId,
      destinationWalletId: payment.to.walletId,
      sendingAssetCode: PAYMENT_ASSET,
      amount: payment.amount,
      ...(payment.memo ? { memo: payment.memo } : {}),
    });
    const accepted = JSON.parse(
      await expectStatus(
        client.send(`${stack.baseUrl}/payments/p2p/own`, { method: 'POST', headers, body }),
        202,
      ),
    ) as Acceptance;
    if (accepted.isIdempotent)
      throw new Error(`a new transactionId was answered as a replay: ${accepted.transactionRecordId}`);
    return accepted;
  };
}

/** GET /v1/transactions/{id}. */
export function transactionReader(stack: LocalStack, client: HttpClient, accessToken: string) {
  const headers = tokenHeaders(stack, accessToken);
  return async (transactionRecordId: string): Promise<TransactionView> =>
    JSON.parse(
      await expectStatus(
        client.send(`${stack.baseUrl}/transactions/${transactionRecordId}`, { method: 'GET', headers }),
        200,
      ),
    ) as TransactionView;
}
