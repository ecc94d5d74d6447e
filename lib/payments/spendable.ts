// What a wallet can spend, checked at acceptance (docs/decisions/spendable-at-acceptance.md): a payment that
// would take more from a wallet than the wallet could spend at that moment (its balances' `spendable`: the
// XLM reserve and open offers set aside) is refused with 422 on its amount, rather than accepted and then
// failed by the ledger (LEDGER_OP_UNDERFUNDED). One Horizon read per paying wallet.
//
// It is a read at one moment, not a hold: payments accepted together from one wallet may each fit and
// together not, or money may leave the wallet before this one executes; the ledger still refuses the
// later one, which fails as before. When the ledger cannot be read, or does not show the wallet's account
// yet (being opened, or a Horizon replica behind it), the check is skipped and the ledger decides:
// acceptance never fails, nor waits, on a read that only saves a failure later.
import BigNumber from 'bignumber.js';
import { type FieldError, unprocessable } from '../http/problem.ts';
import { accountBalances, type LedgerBalance } from '../ledger/balances.ts';
import { LedgerUnavailableError } from '../ledger/errors.ts';
import { logger } from '../log.ts';
import type { WalletRecord } from '../wallets/lookups.ts';
import type { AssetOnRecord } from './repo.ts';

/**
 * One transfer of a payment: `amount` (a decimal string, the fee included) of `asset` out of `from`, and
 * into `to` when that is a wallet of ours another transfer of the payment may spend from.
 */
export interface Transfer {
  from: WalletRecord;
  to?: WalletRecord;
  asset: AssetOnRecord;
  amount: string;
  /** The member a refusal names: `amount`, or `transfers.N.amount`. */
  field: string;
}

const holds = (line: LedgerBalance, asset: AssetOnRecord) =>
  asset.issuer === null
    ? line.assetType === 'native'
    : line.assetCode === asset.code && line.assetIssuer === asset.issuer;

/** The wallet's balances now, or null when the check is left to the ledger (see the top of this file). */
async function balancesNow(wallet: WalletRecord): Promise<LedgerBalance[] | null> {
  try {
    const account = await accountBalances(wallet.environment, wallet.publicKey);
    return account.exists ? account.balances : null;
  } catch (error) {
    if (!(error instanceof LedgerUnavailableError)) throw error;
    logger.warn('Spendable check skipped: the ledger could not be read', {
      walletId: wallet.walletId,
      error: error.message,
    });
    return null;
  }
}

/** A paying wallet as the walk through the transfers sees it: what it can spend before the next one. */
interface Purse {
  line: LedgerBalance | undefined;
  left: BigNumber;
  /** What the transfers so far took, for the message. */
  taken: BigNumber;
}

function overdrawn(purse: Purse, transfer: Transfer): FieldError {
  const { code, issuer } = transfer.asset;
  const { walletId } = transfer.from;
  const why = purse.line
    ? `wallet ${walletId} can spend ${purse.line.spendable} ${code} now (balance ${purse.line.balance}${issuer === null ? ', less the ledger’s reserve' : ''})`
    : `wallet ${walletId} holds no ${code} (no trustline)`;
  return { field: transfer.field, message: `${purse.taken.toFixed()} ${code} is more than ${why}` };
}

/**
 * 422 on the amount of each wallet the payment would overdraw. The transfers are walked in order, as
 * the ledger applies them in one transaction: a wallet spends what it can spend now plus what earlier
 * transfers of the payment paid into it; the refusal names the transfer that overdraws it.
 */
export async function assertSpendable(transfers: Transfer[]): Promise<void> {
  const payers = [...new Map(transfers.map((t) => [t.from.walletId, t.from])).values()];
  const purses = new Map<string, Purse>();
  await Promise.all(
    payers.map(async (wallet) => {
      const balances = await balancesNow(wallet);
      if (!balances) return;
      const asset = transfers.find((t) => t.from.walletId === wallet.walletId)?.asset as AssetOnRecord;
      const line = balances.find((balance) => holds(balance, asset));
      purses.set(wallet.walletId, {
        line,
        left: new BigNumber(line?.spendable ?? 0),
        taken: new BigNumber(0),
      });
    }),
  );
  const errors = new Map<string, FieldError>();
  for (const transfer of transfers) {
    const purse = purses.get(transfer.from.walletId);
    if (purse) {
      purse.left = purse.left.minus(transfer.amount);
      purse.taken = purse.taken.plus(transfer.amount);
      if (purse.left.lt(0) && !errors.has(transfer.from.walletId))
        errors.set(transfer.from.walletId, overdrawn(purse, transfer));
    }
    const into = transfer.to && purses.get(transfer.to.walletId);
    if (into) into.left = into.left.plus(transfer.amount);
  }
  if (errors.size)
    throw unprocessable('The payment is more than the wallet can spend.', [...errors.values()]);
}
