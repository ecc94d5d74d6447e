// The record a ramp's acceptance writes, built once for both directions: an off-ramp's wallet pays the
// connector's settlement account and the fiat is what the beneficiary receives; an on-ramp's settlement
// account pays the wallet and the fiat is what the counterparty sends. Each difference is a row of SIDES.
import type { BeneficiaryRecord, PaymentDestinationRecord } from '../../beneficiaries/repo.ts';
import type { ConnectorRecord } from '../../connectors/repo.ts';
import type { PlatformAccount } from '../../ledger/platform-accounts.ts';
import type { QuoteRecord } from '../../quotes/service.ts';
import type { WalletRecord } from '../../wallets/lookups.ts';
import type { Draft } from '../hand-off.ts';
import type { AssetOnRecord, RampOnRecord, TransactionRecord } from '../repo.ts';
import { instructionParties } from './checks.ts';

type Direction = 'offramp' | 'onramp';

/** What the direction decides: which side of the quote is fiat, and who pays on the ledger. */
const SIDES: Record<
  Direction,
  {
    fiat: (quote: QuoteRecord) => { amount: string; currency: string };
    /** What leaves the payer: an off-ramp's wallet pays the fee on top (the quote's total). */
    originalSendAmount: (quote: QuoteRecord) => string;
    walletPays: boolean;
  }
> = {
  offramp: {
    fiat: (quote) => ({ amount: quote.receiveAmount, currency: quote.receiveCurrency }),
    originalSendAmount: (quote) => quote.total,
    walletPays: true,
  },
  onramp: {
    // What the counterparty pays, in the connector's fiat; the fee comes out of it.
    fiat: (quote) => ({ amount: quote.sendAmount, currency: quote.sendCurrency }),
    originalSendAmount: (quote) => quote.sendAmount,
    walletPays: false,
  },
};

/** The checked wallet, counterparty (the off-ramp's beneficiary, the on-ramp's payer) and destination. */
interface RampParties {
  wallet: WalletRecord;
  counterparty: BeneficiaryRecord;
  destination: PaymentDestinationRecord;
}

/** The quote, its connector and settlement account, and whom a notice goes to. */
interface Priced {
  quote: QuoteRecord;
  connector: ConnectorRecord;
  settlement: PlatformAccount;
  notify: Draft['notify'];
}

/** `asset`: the registry asset the wallet spends (off-ramp) or receives (on-ramp). */
export function rampDraft(
  direction: Direction,
  { wallet, counterparty, destination }: RampParties,
  { quote, connector, settlement, notify }: Priced,
  asset: AssetOnRecord,
  refs: { fromRef?: string | null; toRef?: string | null },
): Draft {
  const side = SIDES[direction];
  const fiat = side.fiat(quote);
  const fiatAsset = { code: fiat.currency, issuer: null };
  const [from, to] = side.walletPays
    ? [wallet.publicKey, settlement.publicKey]
    : [settlement.publicKey, wallet.publicKey];
  return {
    transactionType: direction,
    sendAmount: quote.sendAmount,
    originalSendAmount: side.originalSendAmount(quote),
    fee: quote.fee,
    receiveAmount: quote.receiveAmount,
    exchangeRate: quote.rate,
    sendingAsset: side.walletPays ? asset : fiatAsset,
    receivingAsset: side.walletPays ? fiatAsset : asset,
    walletId: wallet.walletId,
    walletPublicKey: from,
    destinationWalletId: side.walletPays ? null : wallet.walletId,
    destinationStellarAddress: to,
    beneficiaryId: counterparty.beneficiaryId,
    notify,
    walletIds: [wallet.walletId],
    ...rampOf(connector, quote, fiat, counterparty, destination, refs),
  };
}

/**
 * The ramp members of a record: the connector, its quote, the fiat side and the counterparty, the
 * caller's references, and the members no ramp has (a swap's bound, a memo, legs).
 */
function rampOf(
  connector: ConnectorRecord,
  quote: QuoteRecord,
  fiat: { amount: string; currency: string },
  party: BeneficiaryRecord,
  destination: PaymentDestinationRecord,
  refs: { fromRef?: string | null; toRef?: string | null },
): Pick<
  TransactionRecord,
  | 'slippage'
  | 'minReceiveAmount'
  | 'paymentDestinationId'
  | 'fromRef'
  | 'toRef'
  | 'memo'
  | 'legs'
  | 'ramp'
  | 'externalReference'
  | 'providerStatus'
  | 'refundTxHash'
  | 'beneficiaryFirstName'
  | 'beneficiaryLastName'
> {
  const person = party.individual;
  const ramp: RampOnRecord = {
    connectorId: connector.id,
    connectorName: connector.name,
    method: connector.method,
    destinationCountryIso: connector.region.iso,
    quoteId: quote.quoteId,
    rate: quote.rate,
    fiatAmount: fiat.amount,
    fiatCurrency: fiat.currency,
    ...instructionParties(party, destination),
  };
  return {
    slippage: null,
    minReceiveAmount: null,
    paymentDestinationId: destination.destinationId,
    fromRef: refs.fromRef ?? null,
    toRef: refs.toRef ?? null,
    memo: null,
    legs: null,
    ramp,
    externalReference: null,
    providerStatus: null,
    refundTxHash: null,
    beneficiaryFirstName: person ? person.firstName : (party.business?.registeredName ?? null),
    beneficiaryLastName: person ? person.lastName : null,
  };
}
