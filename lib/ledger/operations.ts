// What the wallet and payment code asks of the ledger. Each operation is one crash-safe submission
// (submit.ts) whose `build` reads the ledger afresh, so a replacement envelope is built from the truth.
//
// Fees and reserves: the platform `funding` account pays every fee (it creates accounts, and fee-bumps
// every transaction a wallet signs) and opens each wallet with exactly the ledger reserve the wallet
// needs: 1 XLM for the account (2 base reserves of 0.5) + 0.5 XLM per trustline. Wallets hold only their
// reserves in XLM and never pay fees.
import {
  Asset,
  type FeeBumpTransaction,
  type Horizon,
  type Keypair,
  Memo,
  Operation,
  StrKey,
  type Transaction,
  TransactionBuilder,
} from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import type { Environment } from '../http/types.ts';
import { ledgerAmount } from './amounts.ts';
import { openSecret, type SealedSecret } from './custody.ts';
import { LedgerInputError, LedgerRefusal } from './errors.ts';
import { findLedgerAccount } from './load-account.ts';
import { platformAccount } from './platform-accounts.ts';
import {
  type BuildContext,
  baseFeeFor,
  type SubmissionOutcome,
  type SubmitOptions,
  sourceAccountFor,
  submitOnce,
  timeBoundsFor,
} from './submit.ts';

/** Protocol base reserve: an account needs 2 of them, each trustline (subentry) one more. */
export const BASE_RESERVE_XLM = '0.5';
const ACCOUNT_RESERVE_XLM = '1';

export interface CustodialAccount {
  publicKey: string;
  sealedSecret: SealedSecret;
}

export interface LedgerAssetRef {
  code: string;
  issuer: string;
}

/** Clock and retry tuning passed through to submitOnce. */
export type SubmitTuning = Partial<Pick<SubmitOptions, 'now' | 'maxRounds' | 'pauseMs'>>;

/** What a new wallet account starts with: its reserves and nothing more. */
export const startingBalanceFor = (trustlines: number): string =>
  new BigNumber(ACCOUNT_RESERVE_XLM).plus(new BigNumber(BASE_RESERVE_XLM).times(trustlines)).toFixed();

function assertAccountId(value: string, what: string): void {
  if (!StrKey.isValidEd25519PublicKey(value))
    throw new LedgerInputError(`${what} is not a ledger account id`, what);
}

function toAsset(ref: LedgerAssetRef | 'native'): Asset {
  if (ref === 'native') return Asset.native();
  assertAccountId(ref.issuer, 'The asset issuer');
  try {
    return new Asset(ref.code, ref.issuer);
  } catch {
    throw new LedgerInputError(`${ref.code} is not a valid asset code`, 'assetCode');
  }
}

function holdsTrustline(account: Horizon.AccountResponse, asset: Asset): boolean {
  return account.balances.some(
    (line) =>
      (line.asset_type === 'credit_alphanum4' || line.asset_type === 'credit_alphanum12') &&
      line.asset_code === asset.getCode() &&
      line.asset_issuer === asset.getIssuer(),
  );
}

/** XLM the account lacks to afford one more subentry (a trustline) on top of its current reserve. */
function reserveShortfall(account: Horizon.AccountResponse): string {
  const native = account.balances.find((line) => line.asset_type === 'native');
  const balance = new BigNumber(native?.balance ?? '0');
  const selling = new BigNumber(
    (native as { selling_liabilities?: string } | undefined)?.selling_liabilities ?? '0',
  );
  const entries =
    2 + account.subentry_count + 1 + (account.num_sponsoring ?? 0) - (account.num_sponsored ?? 0);
  const needed = new BigNumber(BASE_RESERVE_XLM).times(entries).plus(selling);
  const shortfall = needed.minus(balance);
  return shortfall.gt(0) ? shortfall.toFixed(7) : '0';
}

async function loadFundingAccount(
  environment: Environment,
  publicKey: string,
): Promise<Horizon.AccountResponse> {
  const account = await findLedgerAccount(environment, publicKey);
  // A platform misconfiguration, not the intent's fault: thrown (retried, then alarmed), never recorded.
  if (!account)
    throw new Error(`The ${environment} funding account ${publicKey} does not exist on the ledger`);
  return account;
}

/** Wraps a wallet-signed transaction in a fee bump paid (and signed) by the funding account. */
function feeBumped(inner: Transaction, fundingKeys: Keypair, ctx: BuildContext): FeeBumpTransaction {
  const bump = TransactionBuilder.buildFeeBumpTransaction(
    fundingKeys,
    baseFeeFor(ctx.feeLevel),
    inner,
    ctx.networkPassphrase,
  );
  bump.sign(fundingKeys);
  return bump;
}

/**
 * Opens a wallet's ledger account with the trustline its asset needs. Already open with the trustline →
 * succeeded without submitting. Absent → one transaction from `funding`: CreateAccount (the reserves)
 * + ChangeTrust (source: the wallet), signed by both. Open without the trustline → ChangeTrust (with
 * a reserve top-up from funding if needed), fee-bumped by funding.
 */
export async function activateAccount(
  input: {
    environment: Environment;
    intentId: string;
    account: CustodialAccount;
    trustline: LedgerAssetRef | null;
  } & SubmitTuning,
): Promise<SubmissionOutcome> {
  const { environment, intentId, account, trustline, ...tuning } = input;
  assertAccountId(account.publicKey, 'The wallet');
  const asset = trustline ? toAsset(trustline) : null;
  const funding = await platformAccount(environment, 'funding');

  const build = async (ctx: BuildContext) => {
    const existing = await findLedgerAccount(environment, account.publicKey);
    if (existing && (!asset || holdsTrustline(existing, asset))) return null;
    const fundingKeys = await openSecret(funding.publicKey, funding.sealedSecret);
    const options = {
      fee: baseFeeFor(ctx.feeLevel),
      networkPassphrase: ctx.networkPassphrase,
      timebounds: timeBoundsFor(ctx.now),
    };

    if (!existing) {
      const builder = new TransactionBuilder(
        sourceAccountFor(ctx, await loadFundingAccount(environment, funding.publicKey)),
        options,
      ).addOperation(
        Operation.createAccount({
          destination: account.publicKey,
          startingBalance: startingBalanceFor(asset ? 1 : 0),
        }),
      );
      if (asset) builder.addOperation(Operation.changeTrust({ asset, source: account.publicKey }));
      const tx = builder.build();
      tx.sign(fundingKeys);
      // The wallet signs only when it has an operation: an extra signature is tx_bad_auth_extra.
      if (asset) tx.sign(await openSecret(account.publicKey, account.sealedSecret));
      return tx;
    }

    // Open without the trustline (asset is set here): the wallet signs its ChangeTrust, funding pays.
    const topUp = reserveShortfall(existing);
    const builder = new TransactionBuilder(sourceAccountFor(ctx, existing), options);
    if (topUp !== '0') {
      builder.addOperation(
        Operation.payment({
          source: funding.publicKey,
          destination: account.publicKey,
          asset: Asset.native(),
          amount: topUp,
        }),
      );
    }
    builder.addOperation(Operation.changeTrust({ asset: asset as Asset }));
    const inner = builder.build();
    inner.sign(await openSecret(account.publicKey, account.sealedSecret));
    if (topUp !== '0') inner.sign(fundingKeys);
    return feeBumped(inner, fundingKeys, ctx);
  };

  return submitOnce({ environment, intentId, build, ...tuning });
}

/**
 * Pays `amount` (a decimal string, at most 7 places) of `asset` from a custodial account to `to`:
 * a Payment whose source is `from`, fee-bumped by `funding` (wallets need no XLM for fees).
 */
export async function pay(
  input: {
    environment: Environment;
    intentId: string;
    /** What the payment is for (purpose.ts): the same intent id asked for another payment is refused. */
    purpose?: string;
    from: CustodialAccount;
    to: string;
    asset: LedgerAssetRef | 'native';
    amount: string;
    /** A text memo, at most 28 bytes. */
    memo?: string;
  } & SubmitTuning,
): Promise<SubmissionOutcome> {
  const {
    environment,
    intentId,
    purpose,
    from,
    to,
    asset: assetRef,
    amount: rawAmount,
    memo,
    ...tuning
  } = input;
  assertAccountId(from.publicKey, 'The source');
  assertAccountId(to, 'The destination');
  const amount = ledgerAmount(rawAmount);
  const asset = toAsset(assetRef);
  if (memo !== undefined && Buffer.byteLength(memo, 'utf8') > 28) {
    throw new LedgerInputError('The memo is longer than 28 bytes', 'memo');
  }
  const funding = await platformAccount(environment, 'funding');

  const build = async (ctx: BuildContext) => {
    const source = await findLedgerAccount(environment, from.publicKey);
    if (!source)
      throw new LedgerRefusal(
        'LEDGER_TX_NO_SOURCE_ACCOUNT',
        'The source wallet is not active on the ledger.',
      );
    const builder = new TransactionBuilder(sourceAccountFor(ctx, source), {
      fee: baseFeeFor(ctx.feeLevel),
      networkPassphrase: ctx.networkPassphrase,
      timebounds: timeBoundsFor(ctx.now),
    }).addOperation(Operation.payment({ destination: to, asset, amount }));
    if (memo) builder.addMemo(Memo.text(memo));
    const inner = builder.build();
    inner.sign(await openSecret(from.publicKey, from.sealedSecret));
    return feeBumped(inner, await openSecret(funding.publicKey, funding.sealedSecret), ctx);
  };

  return submitOnce({ environment, intentId, purpose, build, ...tuning });
}
