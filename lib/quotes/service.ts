// Quotes: price an off-ramp or on-ramp transfer through a connector, for a beneficiary (the type is
// derived) or for a transaction type (exploratory), and keep it for about two minutes.
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { findAssociationKind } from '../auth/associations.ts';
import { findBeneficiary, findPaymentDestination } from '../beneficiaries/directory.ts';
import { config } from '../config.ts';
import type { ConnectorRecord } from '../connectors/repo.ts';
import { connectorOrNotFound } from '../connectors/service.ts';
import {
  shortForm,
  supportedKey,
  type TransactionType,
  transactionTypeOf,
} from '../connectors/transaction-types.ts';
import { exactNumber } from '../http/plain-json.ts';
import { type FieldError, notFound, serviceUnavailable, unprocessable } from '../http/problem.ts';
import type { Tenant } from '../tenant.ts';
import { assetDecimals, fiatDecimals } from './currencies.ts';
import { type FeeSchedule, priceOffRamp, priceOnRamp } from './pricing.ts';
import { rateSourceFor } from './rates.ts';
import { findFeeRow, putQuote, type QuoteRecord, type QuoteType } from './repo.ts';

export { claimQuote, findQuote, isQuoteExpired, type QuoteRecord } from './repo.ts';

import type { CreateQuote } from './schema.ts';

const DIRECTION_OF: Record<QuoteType, ConnectorRecord['direction']> = {
  offramp: 'OFF_RAMP',
  onramp: 'ON_RAMP',
};
/** Destination methods as connectors name them. */
const CONNECTOR_METHOD_OF: Record<string, string> = { BANK: 'BANK', MOBILE_MONEY: 'MOMO' };

const refuse = (errors: FieldError[]) =>
  unprocessable(
    `The quote cannot be created: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}.`,
    errors,
  );

export function toQuoteResource(record: QuoteRecord) {
  return {
    quoteId: record.quoteId,
    type: record.quoteType,
    connectorId: record.connectorId,
    transactionType: shortForm(record.transactionType),
    beneficiaryId: record.beneficiaryId,
    paymentDestinationId: record.paymentDestinationId,
    sendAmount: exactNumber(record.sendAmount),
    sendCurrency: record.sendCurrency,
    receiveAmount: exactNumber(record.receiveAmount),
    receiveCurrency: record.receiveCurrency,
    fee: exactNumber(record.fee),
    feeCurrency: record.feeCurrency,
    total: exactNumber(record.total),
    rate: exactNumber(record.rate),
    expiresAt: record.expiry,
    createdAt: record.createdAt,
  };
}

/** Why the connector cannot price this quote at all (then nothing else is worth checking). */
function connectorErrors(connector: ConnectorRecord, type: QuoteType): FieldError[] {
  const errors: FieldError[] = [];
  const id = connector.id;
  if (connector.direction !== DIRECTION_OF[type])
    errors.push({
      field: 'connectorId',
      message:
        type === 'offramp'
          ? `${id} is an ON_RAMP connector: quote it with ?type=onramp`
          : `${id} is an OFF_RAMP connector: quote it without ?type=onramp`,
    });
  if (!connector.isActive)
    errors.push({ field: 'connectorId', message: `${id} is not active (status ${connector.status})` });
  if (connector.flow === 'BESPOKE')
    errors.push({
      field: 'connectorId',
      message: `${id} is a BESPOKE connector: it is not quoted; register an on-ramp reference instead`,
    });
  return errors;
}

function typeErrors(connector: ConnectorRecord, type: TransactionType, field: string): FieldError[] {
  const listed = connector.transactionTypes.find((t) => t.type === type);
  if (!listed || !connector.supportedTransactionType[supportedKey(type)])
    return [
      { field, message: `transaction type ${shortForm(type)} is not supported by connector ${connector.id}` },
    ];
  if (listed.status !== 'ONLINE')
    return [
      {
        field,
        message: `transaction type ${shortForm(type)} is ${listed.status} on connector ${connector.id}`,
      },
    ];
  return [];
}

export function destinationErrors(
  connector: ConnectorRecord,
  fiat: string,
  destination: { method: string; countryIsoCode2: string; currencyCode: string },
): FieldError[] {
  const field = 'paymentDestinationId';
  if (destination.method === 'CRYPTO')
    return [{ field, message: 'is a CRYPTO destination: crypto goes through P2P or swap, not a connector' }];
  if (connector.method === 'CASH')
    return [{ field, message: `${connector.id} pays out cash in person: omit paymentDestinationId` }];
  const errors: FieldError[] = [];
  if (CONNECTOR_METHOD_OF[destination.method] !== connector.method)
    errors.push({
      field,
      message: `is a ${destination.method} destination; ${connector.id} uses ${connector.method}`,
    });
  if (destination.countryIsoCode2 !== connector.region.iso)
    errors.push({
      field,
      message: `is in ${destination.countryIsoCode2}; ${connector.id} serves ${connector.region.iso}`,
    });
  if (destination.currencyCode !== fiat)
    errors.push({ field, message: `is in ${destination.currencyCode}; ${connector.id} works in ${fiat}` });
  return errors;
}

function amountErrors(connector: ConnectorRecord, amount: BigNumber, decimals: number): FieldError[] {
  const currency = connector.acceptedAsset;
  if ((amount.decimalPlaces() ?? 0) > decimals)
    return [{ field: 'amount', message: `must have at most ${decimals} decimal places in ${currency}` }];
  const errors: FieldError[] = [];
  for (const limit of connector.limits) {
    if (limit.scope !== 'TRANSACTION' || limit.type !== 'AMOUNT' || limit.currency !== currency) continue;
    if (amount.lt(limit.minValue))
      errors.push({
        field: 'amount',
        message: `must be at least ${limit.minValue} ${currency} (TRANSACTION limit)`,
      });
    if (amount.gt(limit.maxValue))
      errors.push({
        field: 'amount',
        message: `must be at most ${limit.maxValue} ${currency} (TRANSACTION limit)`,
      });
  }
  return errors;
}

export async function createQuote(
  tenant: Tenant,
  type: QuoteType,
  input: CreateQuote,
  now: Date,
  newId: () => string = randomUUID,
) {
  if ((input.beneficiaryId === undefined) === (input.transactionType === undefined)) {
    const message = 'exactly one of beneficiaryId or transactionType is required';
    throw refuse([
      { field: 'beneficiaryId', message },
      { field: 'transactionType', message },
    ]);
  }
  if (input.paymentDestinationId && !input.beneficiaryId)
    throw refuse([
      { field: 'paymentDestinationId', message: 'requires beneficiaryId (the destination’s owner)' },
    ]);

  const connector = await connectorOrNotFound(tenant.environment, input.connectorId);
  const beneficiary = input.beneficiaryId ? await findBeneficiary(tenant, input.beneficiaryId) : undefined;
  if (input.beneficiaryId && !beneficiary) throw notFound(`No beneficiary ${input.beneficiaryId}.`);
  const destination =
    input.beneficiaryId && input.paymentDestinationId
      ? await findPaymentDestination(tenant, input.beneficiaryId, input.paymentDestinationId)
      : undefined;
  if (input.paymentDestinationId && !destination)
    throw notFound(
      `No payment destination ${input.paymentDestinationId} for beneficiary ${input.beneficiaryId}.`,
    );

  const unusable = connectorErrors(connector, type);
  if (unusable.length) throw refuse(unusable);

  let transactionType: TransactionType;
  let typeField: string;
  if (beneficiary) {
    const association = await findAssociationKind(tenant);
    if (!association) throw new Error(`No association record for ${tenant.associationId}`);
    // Payer first: off-ramp, the caller pays the beneficiary; on-ramp, the counterparty pays the caller.
    transactionType =
      type === 'offramp'
        ? transactionTypeOf(association, beneficiary.kind)
        : transactionTypeOf(beneficiary.kind, association);
    typeField = 'beneficiaryId';
  } else {
    transactionType = input.transactionType as TransactionType;
    typeField = 'transactionType';
  }

  // Off-ramp: asset in, fiat out. On-ramp: fiat in, asset out.
  const [asset, fiat] =
    type === 'offramp'
      ? [connector.acceptedAsset, connector.destinationAsset]
      : [connector.destinationAsset, connector.acceptedAsset];
  const [assetUnits, fiatUnits] = [await assetDecimals(tenant.environment, asset), fiatDecimals(fiat)];
  const [sendDecimals, receiveDecimals] =
    type === 'offramp' ? [assetUnits, fiatUnits] : [fiatUnits, assetUnits];
  const amount = new BigNumber(input.amount);
  const errors = [
    ...typeErrors(connector, transactionType, typeField),
    ...(destination ? destinationErrors(connector, fiat, destination) : []),
    ...amountErrors(connector, amount, sendDecimals),
  ];
  if (errors.length) throw refuse(errors);

  const source = rateSourceFor(tenant.environment);
  const rate = await source.rate(asset, fiat);
  if (!rate) throw serviceUnavailable(`No ${asset}/${fiat} rate is available right now.`);
  // Business fee rows are off-ramp fees (docs/decisions/ramp-acceptance.md): the exact row wins, zero
  // included.
  const row = type === 'offramp' ? await findFeeRow(tenant, connector.id, transactionType) : undefined;
  const schedule: FeeSchedule = row ?? connector.fee;
  const priced = (type === 'offramp' ? priceOffRamp : priceOnRamp)({
    amount,
    rate,
    fee: schedule,
    sendDecimals,
    receiveDecimals,
  });
  if (!priced.receiveAmount.gt(0))
    throw refuse([
      {
        field: 'amount',
        message:
          type === 'onramp'
            ? `does not cover the fee of ${priced.fee.toFixed()} ${connector.acceptedAsset}`
            : `is too small: it converts to less than one minor unit of ${fiat}`,
      },
    ]);

  const ttl = config().QUOTE_TTL_SECONDS;
  const expiry = new Date(now.getTime() + ttl * 1000);
  const record: QuoteRecord = {
    quoteId: newId(),
    environment: tenant.environment,
    associationId: tenant.associationId,
    quoteType: type,
    connectorId: connector.id,
    transactionType,
    beneficiaryId: input.beneficiaryId ?? null,
    paymentDestinationId: input.paymentDestinationId ?? null,
    sendAmount: priced.sendAmount.toFixed(),
    sendCurrency: connector.acceptedAsset,
    receiveAmount: priced.receiveAmount.toFixed(),
    receiveCurrency: connector.destinationAsset,
    fee: priced.fee.toFixed(),
    feeCurrency: connector.acceptedAsset,
    feeSource: row ? 'feeRow' : 'connector',
    total: priced.total.toFixed(),
    rate: rate.toFixed(),
    rateSource: source.name,
    createdAt: now.toISOString(),
    expiry: expiry.toISOString(),
    expiresAt: Math.ceil(expiry.getTime() / 1000),
  };
  await putQuote(record);
  return toQuoteResource(record);
}

/**
 * A provider on-ramp receipt (a customer paid `amount` of the connector's fiat into a reference), priced
 * as an on-ramp quote of that amount is: the connector's fee out of it, the rest at the environment's
 * rate. Undefined when no rate is available now.
 */
export async function priceReceipt(
  environment: Tenant['environment'],
  connector: ConnectorRecord,
  amount: BigNumber,
) {
  const rate = await rateSourceFor(environment).rate(connector.destinationAsset, connector.acceptedAsset);
  if (!rate) return undefined;
  const priced = priceOnRamp({
    amount,
    rate,
    fee: connector.fee,
    sendDecimals: fiatDecimals(connector.acceptedAsset),
    receiveDecimals: await assetDecimals(environment, connector.destinationAsset),
  });
  return { fee: priced.fee, receiveAmount: priced.receiveAmount, rate };
}
