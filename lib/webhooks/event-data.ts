// An event's `data`: the resource the change wrote, as the API returns it (a transaction record as
// GET /transactions/{id} shows it, a wallet as GET /wallets/{id} without its balances, a payment
// destination as its route shows it, a customer's registration as GET /customers/… shows it). Built by
// the dispatcher, not the outbox router, which bundles no domain code.
import { toDestinationResource } from '../beneficiaries/destination-resource.ts';
import type { PaymentDestinationRecord } from '../beneficiaries/repo.ts';
import type { CustomerRecord } from '../customers/repo.ts';
import { toCustomerResource } from '../customers/responses.ts';
import { recordOf } from '../db/entity.ts';
import { exactNumber } from '../http/plain-json.ts';
import { transactionOf } from '../payments/repo.ts';
import { toTransactionResource } from '../payments/responses.ts';
import type { WalletRecord } from '../wallets/repo.ts';
import { toWalletResource } from '../wallets/responses.ts';
import type { EventMessage } from './event-message.ts';

export function eventDataOf(message: EventMessage): unknown {
  const record = recordOf<unknown>(message.item);
  switch (message.itemType) {
    case 'transaction':
      return toTransactionResource(transactionOf(message.item));
    case 'wallet':
      // Balances are read from the ledger when asked for; an event reports the KYC decision.
      return toWalletResource(record as WalletRecord, null);
    case 'paymentDestination':
      return toDestinationResource(record as PaymentDestinationRecord);
    case 'customer':
      return toCustomerResource(record as CustomerRecord);
    default:
      throw new Error(`No event data for items of type ${message.itemType}`);
  }
}

/**
 * The id of the resource an event is about, what `GET /webhooks/deliveries?resourceId=` takes: a
 * record's, a wallet's or a destination's UUID. None for a customer's, which is the caller's own text.
 */
export function resourceIdOf(message: EventMessage): string | null {
  const item = message.item;
  switch (message.itemType) {
    case 'transaction':
      return String(item.transactionRecordId);
    case 'wallet':
      return String(item.walletId);
    case 'paymentDestination':
      return String(item.destinationId);
    default:
      return null;
  }
}

/**
 * What an event's `metaData` carries beside the environment: a provider on-ramp's payout summary
 * (docs/decisions/provider-onramp-receipts.md), `data: {netAmount, totalFees, assetCode, reference}`, on each
 * of its record's events.
 */
export function eventMetaDataOf(message: EventMessage): Record<string, unknown> {
  const receipt = message.itemType === 'transaction' ? transactionOf(message.item).receipt : undefined;
  if (!receipt) return {};
  return {
    data: {
      netAmount: exactNumber(receipt.netAmount),
      totalFees: exactNumber(receipt.totalFees),
      feeCurrency: receipt.feeCurrency,
      assetCode: receipt.assetCode,
      reference: receipt.reference,
    },
  };
}
