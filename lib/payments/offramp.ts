// Off-ramp acceptance (spec §4.7, issue #19 §2): a wallet pays a beneficiary's BANK, MOBILE_MONEY or
// cash-pickup destination through a connector, against a quote. Everything priced comes from the quote;
// the body names who pays whom and the compliance answers. The checks, in order, each a 4xx naming the
// member: the wallet (404/403), the beneficiary and destination (404, CRYPTO 422), the quote (404 not
// ours, 422 wrong type, expired or inconsistent with the body), the connector's compliance fields (422,
// one error per missing field), the limits (422 on `amount`), notify flags; then the quote is claimed
// for this record (409 when another record executed it) and the record written (service.ts accept()).
import BigNumber from 'bignumber.js';
import { findAssociationKind } from '../auth/associations.ts';
import { findBeneficiary, findPaymentDestination } from '../beneficiaries/directory.ts';
import type { BeneficiaryRecord, PaymentDestinationRecord } from '../beneficiaries/repo.ts';
import type { ConnectorRecord } from '../connectors/repo.ts';
import { connectorOrNotFound } from '../connectors/service.ts';
import { shortForm, transactionTypeOf } from '../connectors/transaction-types.ts';
import { type VocabularyName, vocabularies } from '../connectors/vocabularies.ts';
import { type FieldError, notFound, Problem, unprocessable } from '../http/problem.ts';
import type { Tenant } from '../http/types.ts';
import { platformAccount } from '../ledger/platform-accounts.ts';
import {
  claimQuote,
  destinationErrors,
  findQuote,
  isQuoteExpired,
  type QuoteRecord,
} from '../quotes/service.ts';
import { limitErrors, limitsFor, type Standing, type WindowUse } from './ramp-limits.ts';
import { transactionRecordIdOf } from './record-ids.ts';
import { listRampsSince } from './repo.ts';
import type { Offramp } from './schema.ts';
import { accept, type Draft, notifyTarget, onRecord, registryAsset, usableWallet } from './service.ts';

const LONGEST_WINDOW_SECONDS = 2_592_000;

/** The value at a member path (`individual.idNumber`) of an object, or undefined. */
function valueAt(source: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], source);
}

const isGiven = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

function vocabularyErrors(
  body: Record<string, unknown>,
  members: Record<string, VocabularyName>,
): FieldError[] {
  return Object.entries(members).flatMap(([field, vocabulary]) => {
    const value = body[field];
    if (value === undefined) return [];
    return vocabularies[vocabulary].some((entry) => entry.code === value)
      ? []
      : [{ field, message: `${String(value)} is not a ${vocabulary} code of GET /payments/enums` }];
  });
}

/** Every compliance field the connector requires for this type that is missing, one error each. */
export function complianceErrors(
  connector: ConnectorRecord,
  quote: QuoteRecord,
  parties: { sender: Record<string, unknown>; beneficiary: unknown; destination: unknown },
  prefixes: { sender: string; beneficiary: string; destination: string },
): FieldError[] {
  const set = connector.compliance[quote.transactionType];
  if (!set) return [];
  const missing = (party: 'sender' | 'beneficiary' | 'destination') =>
    set[party]
      .filter((r) => r.required && !isGiven(valueAt(parties[party], r.field)))
      .map((r) => ({
        field: `${prefixes[party]}${r.field}`,
        message: `is required by connector ${connector.id} for ${shortForm(quote.transactionType)}`,
      }));
  return [...missing('sender'), ...missing('beneficiary'), ...missing('destination')];
}

/** The caller's unexpired quote of `type`: 404 not ours, 422 another type or expired. */
export async function usableQuote(
  tenant: Tenant,
  quoteId: string,
  type: QuoteRecord['quoteType'],
  now: Date,
) {
  const quote = await findQuote(tenant, quoteId);
  if (!quote)
    throw notFound(`No quote ${quoteId}.`, [{ field: 'quoteId', message: 'is not a quote of yours' }]);
  if (quote.quoteType !== type)
    throw unprocessable('The quote is of another kind.', [
      { field: 'quoteId', message: `is an ${quote.quoteType} quote; this route executes ${type} quotes` },
    ]);
  if (isQuoteExpired(quote, now))
    throw unprocessable('The quote has expired.', [
      { field: 'quoteId', message: `quote expired at ${quote.expiry}; create a new one` },
    ]);
  return quote;
}

/** Claims the quote for the record: 409 when another payment executed it. */
export async function claimOrConflict(tenant: Tenant, quoteId: string, transactionId: string): Promise<void> {
  if (!(await claimQuote(tenant, quoteId, transactionRecordIdOf(tenant, transactionId))))
    throw new Problem(409, 'This quote was already executed by another payment.', {
      errors: [{ field: 'quoteId', message: 'executes at most once; create a new quote' }],
    });
}

function consistencyErrors(
  quote: QuoteRecord,
  body: Offramp,
  derivedType: QuoteRecord['transactionType'],
): FieldError[] {
  const errors: FieldError[] = [];
  if (quote.beneficiaryId !== null && quote.beneficiaryId !== body.beneficiaryId)
    errors.push({ field: 'beneficiaryId', message: 'is not the beneficiary the quote was priced for' });
  if (quote.beneficiaryId === null && quote.transactionType !== derivedType)
    errors.push({
      field: 'beneficiaryId',
      message: `makes this a ${shortForm(derivedType)} payment; the quote was priced for ${shortForm(quote.transactionType)}`,
    });
  if (quote.paymentDestinationId !== null && quote.paymentDestinationId !== body.paymentDestinationId)
    errors.push({
      field: 'paymentDestinationId',
      message: 'is not the destination the quote was priced for',
    });
  if (quote.sendCurrency !== body.sendingAssetCode)
    errors.push({ field: 'sendingAssetCode', message: `must be ${quote.sendCurrency}, the quote’s asset` });
  return errors;
}

/** A destination the connector can pay (quotes' rule); a cash pickup is paid to the beneficiary in person. */
const payableErrors = (connector: ConnectorRecord, destination: PaymentDestinationRecord): FieldError[] =>
  connector.method === 'CASH' ? [] : destinationErrors(connector, connector.destinationAsset, destination);

const standingOf = (beneficiary: BeneficiaryRecord): Standing =>
  beneficiary.classification === 'Me' ? 'Me' : (beneficiary.unverifiedTier ?? 'TIER_0');

async function windowUse(tenant: Tenant, connectorId: string, now: Date) {
  const since = new Date(now.getTime() - LONGEST_WINDOW_SECONDS * 1000);
  const records = (await listRampsSince(tenant, connectorId, since)).filter(
    (r) => r.status !== 'failed' && r.status !== 'refund_completed',
  );
  return (durationSeconds: number): WindowUse => {
    const from = now.getTime() - durationSeconds * 1000;
    const inWindow = records.filter((r) => Date.parse(r.createdAt) >= from);
    return {
      amount: inWindow.reduce((sum, r) => sum.plus(r.sendAmount), new BigNumber(0)),
      count: inWindow.length,
    };
  };
}

/** What the provider is told about the beneficiary and where to pay: the connector's fields, as held. */
function instructionParties(beneficiary: BeneficiaryRecord, destination: PaymentDestinationRecord) {
  const person = beneficiary.individual;
  return {
    beneficiary: {
      kind: beneficiary.kind,
      ...(person ? { individual: person } : { business: beneficiary.business }),
    },
    destination: {
      method: destination.method,
      countryIsoCode2: destination.countryIsoCode2,
      currencyCode: destination.currencyCode,
      ...Object.fromEntries(
        (
          [
            'accountNumber',
            'bankCode',
            'accountHolderName',
            'bankName',
            'accountType',
            'mobileNumber',
            'provider',
          ] as const
        )
          .filter((k) => destination[k] !== undefined)
          .map((k) => [k, destination[k]]),
      ),
    },
  };
}

async function offrampDraft(tenant: Tenant, body: Offramp, now: Date): Promise<Draft> {
  const [wallet, beneficiary, destination] = await Promise.all([
    usableWallet(tenant, body.walletId, 'walletId'),
    findBeneficiary(tenant, body.beneficiaryId),
    findPaymentDestination(tenant, body.beneficiaryId, body.paymentDestinationId),
  ]);
  if (!beneficiary)
    throw notFound(`No beneficiary ${body.beneficiaryId}.`, [
      { field: 'beneficiaryId', message: 'is not a beneficiary of yours' },
    ]);
  if (!destination)
    throw notFound(`No payment destination ${body.paymentDestinationId} for this beneficiary.`, [
      { field: 'paymentDestinationId', message: 'is not a destination of this beneficiary' },
    ]);
  if (destination.method === 'CRYPTO')
    throw unprocessable('Off-ramps pay fiat destinations.', [
      {
        field: 'paymentDestinationId',
        message: 'is a CRYPTO destination: pay it with POST /payments/p2p/beneficiary or a swap',
      },
    ]);
  const quote = await usableQuote(tenant, body.quoteId, 'offramp', now);
  const connector = await connectorOrNotFound(tenant.environment, quote.connectorId);
  const association = await findAssociationKind(tenant);
  if (!association) throw new Error(`No association record for ${tenant.associationId}`);
  const derivedType = transactionTypeOf(association, beneficiary.kind);
  const mismatched = [
    ...consistencyErrors(quote, body, derivedType),
    ...payableErrors(connector, destination),
  ];
  if (mismatched.length) throw unprocessable('The payment does not match its quote.', mismatched);

  const compliance = [
    ...vocabularyErrors(body, {
      purpose: 'purposeOfRemittance',
      sourceOfFunds: 'sourceOfFunds',
      beneficiarySourceOfFunds: 'sourceOfFunds',
    }),
    ...complianceErrors(
      connector,
      quote,
      { sender: body, beneficiary, destination },
      { sender: '', beneficiary: 'beneficiary.', destination: 'paymentDestination.' },
    ),
  ];
  if (compliance.length)
    throw unprocessable('Compliance fields the connector requires are missing.', compliance);

  const amount = new BigNumber(quote.sendAmount);
  const limits = limitsFor(
    connector.limits,
    connector.acceptedAsset,
    destination.verificationStatus,
    standingOf(beneficiary),
  );
  const overLimit = limitErrors(
    limits,
    amount,
    connector.acceptedAsset,
    await windowUse(tenant, connector.id, now),
  );
  if (overLimit.length) throw unprocessable('The payment is over a limit.', overLimit);

  const person = beneficiary.individual;
  const contact = person ?? beneficiary.business;
  const notify = notifyTarget({ email: contact?.email ?? null, mobile: contact?.mobile ?? null }, body);
  const sending = await registryAsset(tenant, body.sendingAssetCode, 'sendingAssetCode');
  const settlement = await platformAccount(tenant.environment, `settlement:${connector.id}`);
  await claimOrConflict(tenant, quote.quoteId, body.transactionId);
  return {
    transactionType: 'offramp',
    sendAmount: quote.sendAmount,
    // What leaves the wallet: the amount and the fee on top (the quote's total).
    originalSendAmount: quote.total,
    fee: quote.fee,
    receiveAmount: quote.receiveAmount,
    exchangeRate: quote.rate,
    sendingAsset: onRecord(sending),
    receivingAsset: { code: quote.receiveCurrency, issuer: null },
    slippage: null,
    minReceiveAmount: null,
    walletId: wallet.walletId,
    walletPublicKey: wallet.publicKey,
    destinationWalletId: null,
    destinationStellarAddress: settlement.publicKey,
    beneficiaryId: beneficiary.beneficiaryId,
    beneficiaryFirstName: person ? person.firstName : (beneficiary.business?.registeredName ?? null),
    beneficiaryLastName: person ? person.lastName : null,
    paymentDestinationId: destination.destinationId,
    fromRef: body.fromRef ?? null,
    toRef: body.toRef ?? null,
    memo: null,
    notify,
    legs: null,
    walletIds: [wallet.walletId],
    ramp: {
      connectorId: connector.id,
      connectorName: connector.name,
      method: connector.method,
      destinationCountryIso: connector.region.iso,
      quoteId: quote.quoteId,
      rate: quote.rate,
      fiatAmount: quote.receiveAmount,
      fiatCurrency: quote.receiveCurrency,
      ...instructionParties(beneficiary, destination),
    },
    externalReference: null,
    providerStatus: null,
    refundTxHash: null,
  };
}

export const payOfframp = (tenant: Tenant, body: Offramp, now: Date) =>
  accept(tenant, 'payOfframp', body, now, () => offrampDraft(tenant, body, now));
