// What the wallet and payment code asks of the ledger. Each operation is one crash-safe submission
// (submit.ts) whose `build` reads the ledger afresh, so a replacement envelope is built from the truth.
//
// Sources and fees: every transaction is built on a channel account leased for its intent (channels.ts),
// so it is the transaction's source and sequence number; the wallet or platform account that acts is the
// source of each operation and signs it. The platform `funding` account fee-bumps every transaction and
// opens each wallet with exactly the ledger reserve the wallet needs: 1 XLM for the account (2 base
// reserves of 0.5) + 0.5 XLM per trustline. Wallets hold only their reserves in XLM and never pay fees.
import { Asset, Memo, Operation, StrKey, TransactionBuilder } from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import type { Environment } from '../tenant.ts';
import { ledgerAmount, MEMO_BYTES } from './amounts.ts';
import { BASE_RESERVE_XLM, minimumBalance } from './balances.ts';
import { openSecret, type SealedSecret } from './custody.ts';
import { fundedEnvelope, onChannel } from './envelopes.ts';
import { LedgerInputError, LedgerRefusal } from './errors.ts';
import {
  findLedgerAccount,
  type LedgerAccount,
  openedAccount,
  platformLedgerAccount,
} from './load-account.ts';
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
export type SubmitTuning = Partial<
  Pick<SubmitOptions, 'now' | 'maxRounds' | 'pauseMs' | 'budgetMs' | 'outcomeLogged'>
>;

/** What a new wallet account starts with: its reserves and nothing more. */
export const startingBalanceFor = (trustlines: number): string =>
  new BigNumber(ACCOUNT_RESERVE_XLM).plus(new BigNumber(BASE_RESERVE_XLM).times(trustlines)).toFixed();

export function assertAccountId(value: string, what: string): void {
  if (!StrKey.isValidEd25519PublicKey(value))
    throw new LedgerInputError(`${what} is not a ledger account id`, what);
}

export function toAsset(ref: LedgerAssetRef | 'native'): Asset {
  if (ref === 'native') return Asset.native();
  assertAccountId(ref.issuer, 'The asset issuer');
  try {
    return new Asset(ref.code, ref.issuer);
  } catch {
    throw new LedgerInputError(`${ref.code} is not a valid asset code`, 'assetCode');
  }
}

export function holdsTrustline(account: LedgerAccount, asset: Asset): boolean {
  return account.balances.some(
    (line) =>
      (line.asset_type === 'credit_alphanum4' || line.asset_type === 'credit_alphanum12') &&
      line.asset_code === asset.getCode() &&
      line.asset_issuer === asset.getIssuer(),
  );
}

/** XLM the account lacks to afford `subentries` more (trustlines) on top of its current reserve. */
export function reserveShortfall(account: LedgerAccount, subentries = 1): string {
  const native = account.balances.find((line) => line.asset_type === 'native');
  const balance = new BigNumber(native?.balance ?? '0');
  const selling = new BigNumber(
    (native as { selling_liabilities?: string } | undefined)?.selling_liabilities ?? '0',
  );
  const needed = minimumBalance(account, subentries).plus(selling);
  const shortfall = needed.minus(balance);
  return shortfall.gt(0) ? shortfall.toFixed(7) : '0';
}

/** A text memo fits the ledger's 28 bytes. */
export function assertMemo(memo: string | undefined): void {
  if (memo !== undefined && Buffer.byteLength(memo, 'utf8') > MEMO_BYTES) {
    throw new LedgerInputError('The memo is longer than 28 bytes', 'memo');
  }
}

/**
 * A paying wallet as the ledger has it. Not on the ledger, it is the intent's failure (a wallet not
 * activated yet), decided before anything is submitted.
 */
export async function activeSource(environment: Environment, publicKey: string): Promise<LedgerAccount> {
  const source = await findLedgerAccount(environment, publicKey);
  if (!source)
    throw new LedgerRefusal('LEDGER_TX_NO_SOURCE_ACCOUNT', 'The source wallet is not active on the ledger.');
  return source;
}

/**
 * Opens a wallet's ledger account with the trustline its asset needs. Already open with the trustline →
 * succeeded without submitting. Absent → CreateAccount (the reserves, from funding) + ChangeTrust (the
 * wallet). Open without the trustline → ChangeTrust (with a reserve top-up from funding if needed).
 * Each on a channel, fee-bumped by funding.
 */
export async function activateAccount(
  input: {
    environment: Environment;
    intentId: string;
    account: CustodialAccount;
    /**
     * The account is known to be open (only a trustline is wanted): not found, a read lags behind the
     * ledger and is waited for, rather than an account to create.
     */
    opened?: boolean;
    trustline: LedgerAssetRef | null;
  } & SubmitTuning,
): Promise<SubmissionOutcome> {
  const { environment, intentId, account, opened, trustline, ...tuning } = input;
  assertAccountId(account.publicKey, 'The wallet');
  const asset = trustline ? toAsset(trustline) : null;
  const funding = await platformAccount(environment, 'funding');

  const build = async (ctx: BuildContext) => {
    const existing = opened
      ? await openedAccount(environment, account.publicKey, 'wallet')
      : await findLedgerAccount(environment, account.publicKey);
    if (existing && (!asset || holdsTrustline(existing, asset))) return null;
    const builder = onChannel(ctx);
    // Open without the trustline, the account may lack the reserve for one more subentry.
    const topUp = existing ? reserveShortfall(existing) : '0';
    if (!existing) {
      builder.addOperation(
        Operation.createAccount({
          source: funding.publicKey,
          destination: account.publicKey,
          startingBalance: startingBalanceFor(asset ? 1 : 0),
        }),
      );
    } else if (topUp !== '0') {
      builder.addOperation(
        Operation.payment({
          source: funding.publicKey,
          destination: account.publicKey,
          asset: Asset.native(),
          amount: topUp,
        }),
      );
    }
    if (asset) builder.addOperation(Operation.changeTrust({ asset, source: account.publicKey }));
    // Only accounts with an operation sign: an extra signature is tx_bad_auth_extra.
    const acting = [...(!existing || topUp !== '0' ? [funding] : []), ...(asset ? [account] : [])];
    return fundedEnvelope(builder, ctx, acting, funding);
  };

  return submitOnce({ environment, intentId, build, channel: true, ...tuning });
}

/**
 * Pays `amount` (a decimal string, at most 7 places) of `asset` from a custodial account to `to`:
 * a Payment whose source is `from`, on a channel, fee-bumped by `funding` (wallets need no XLM for fees).
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
  assertMemo(memo);
  const funding = await platformAccount(environment, 'funding');

  const build = async (ctx: BuildContext) => {
    await activeSource(environment, from.publicKey);
    const builder = onChannel(ctx).addOperation(
      Operation.payment({ source: from.publicKey, destination: to, asset, amount }),
    );
    if (memo) builder.addMemo(Memo.text(memo));
    return fundedEnvelope(builder, ctx, [from], funding);
  };

  return submitOnce({ environment, intentId, purpose, build, channel: true, ...tuning });
}

/**
 * Opens platform accounts (channel accounts) with `startingBalance` XLM each from the funding account,
 * those the ledger does not hold yet, in one transaction whose source is the funding account itself:
 * the channels cannot be the source of their own opening. Succeeded without submitting when all are open.
 */
export async function openPlatformAccounts(
  input: {
    environment: Environment;
    intentId: string;
    accounts: string[];
    startingBalance: string;
  } & SubmitTuning,
): Promise<SubmissionOutcome> {
  const { environment, intentId, accounts, startingBalance, ...tuning } = input;
  for (const account of accounts) assertAccountId(account, 'The account');
  if (accounts.length > 100) throw new LedgerInputError('At most 100 accounts per transaction', 'accounts');
  const funding = await platformAccount(environment, 'funding');

  const build = async (ctx: BuildContext) => {
    // Read side by side: a transaction opens up to 100, one read after another would take its budget.
    const open = await Promise.all(accounts.map((account) => findLedgerAccount(environment, account)));
    const missing = accounts.filter((_, i) => !open[i]);
    if (missing.length === 0) return null;
    const source = await platformLedgerAccount(environment, funding.publicKey, 'funding');
    const builder = new TransactionBuilder(sourceAccountFor(ctx, source), {
      fee: baseFeeFor(ctx.feeLevel),
      networkPassphrase: ctx.networkPassphrase,
      timebounds: timeBoundsFor(ctx.now),
    });
    for (const destination of missing)
      builder.addOperation(Operation.createAccount({ destination, startingBalance }));
    const tx = builder.build();
    tx.sign(await openSecret(environment, funding.publicKey, funding.sealedSecret));
    return tx;
  };

  return submitOnce({ environment, intentId, build, ...tuning });
}
