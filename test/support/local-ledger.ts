// Helpers for the local-ledger tests that start their own ledgers: build and sign envelopes through the
// SDK, read raw HTTP answers (status, headers, body) and wait for the ledger to reach a state.
import assert from 'node:assert/strict';
import {
  type FeeBumpTransaction,
  Horizon,
  type Keypair,
  type Memo,
  type Transaction,
  TransactionBuilder,
  TransactionFailedError,
  type xdr,
} from '@stellar/stellar-sdk';
import { type LocalLedger, type LocalLedgerOptions, startLocalLedger } from '../../local/ledger/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: Horizon resources and problems are asserted on field by field.
export type Json = any;

export const now = () => Math.floor(Date.now() / 1000);
export const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Horizon prints 7 decimal places; as stroops the comparisons are exact. */
export const stroops = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 10_000_000n + BigInt(fraction.padEnd(7, '0'));
};

export interface BuildOptions {
  fee?: string;
  signers?: Keypair[];
  /** The sequence source; the builder increments it. */
  account?: ConstructorParameters<typeof TransactionBuilder>[0];
  timebounds?: { minTime: number; maxTime: number };
  /** Seconds from now (the process clock) for maxTime; default 300. */
  timeout?: number;
  memo?: Memo;
}

export interface TestLedger {
  ledger: LocalLedger;
  server: Horizon.Server;
  build(source: Keypair, operations: xdr.Operation[], options?: BuildOptions): Promise<Transaction>;
  submit(tx: Transaction | FeeBumpTransaction): Promise<Horizon.HorizonApi.TransactionResponse>;
  /** A raw request to the ledger: status, headers and parsed body, whatever the status. */
  http(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: Json }>;
  /** Hashes waiting in the pending pool (GET /_admin/status). */
  pending(): Promise<string[]>;
  /** Waits until the ledger has received this submission into its pool. */
  untilPending(hash: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startTestLedger(
  options: Omit<LocalLedgerOptions, 'networkPassphrase'> & { networkPassphrase?: string },
): Promise<TestLedger> {
  const networkPassphrase = options.networkPassphrase ?? `Local ledger test ; ${Math.random()}`;
  const ledger = await startLocalLedger({ port: 0, ...options, networkPassphrase });
  const server = new Horizon.Server(ledger.url, { allowHttp: true });
  const http = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${ledger.url}${path}`, init);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const pending = async () => ((await http('/_admin/status')).body as { pending: string[] }).pending;
  return {
    ledger,
    server,
    http,
    pending,
    async untilPending(hash) {
      await waitFor(async () => (await pending()).includes(hash), `${hash} pending`);
    },
    async build(source, operations, build = {}) {
      const account = build.account ?? (await server.loadAccount(source.publicKey()));
      const builder = new TransactionBuilder(account, {
        fee: build.fee ?? '100',
        networkPassphrase,
        ...(build.timebounds ? { timebounds: build.timebounds } : {}),
      });
      for (const operation of operations) builder.addOperation(operation);
      if (build.memo) builder.addMemo(build.memo);
      if (!build.timebounds) builder.setTimeout(build.timeout ?? 300);
      const tx = builder.build();
      tx.sign(...(build.signers ?? [source]));
      return tx;
    },
    async submit(tx) {
      return (await server.submitTransaction(tx)) as unknown as Horizon.HorizonApi.TransactionResponse;
    },
    stop: () => ledger.stop(),
  };
}

export async function waitFor(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await pause(10);
  }
}

export interface HorizonFailure {
  status: number;
  type: string;
  codes?: { transaction: string; inner_transaction?: string; operations?: string[] };
  data: Json;
  error: unknown;
}

/** The answer of a submission (or call) that was expected to fail with an HTTP answer. */
export async function failure(promise: Promise<unknown>): Promise<HorizonFailure> {
  try {
    await promise;
  } catch (error) {
    const response = (error as { response?: { status?: number; data?: Json } }).response;
    // Call builders put the problem body itself in `response`; submitTransaction's errors wrap it.
    const data = error instanceof TransactionFailedError || response?.data ? response?.data : response;
    assert.ok(data, `expected an HTTP answer, got ${error}`);
    return {
      status: response?.status ?? data.status,
      type: data.type,
      codes: data.extras?.result_codes,
      data,
      error,
    };
  }
  assert.fail('expected a failure');
}
