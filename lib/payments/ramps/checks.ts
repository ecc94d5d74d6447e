// The checks off-ramps and on-ramps share: the wallet, counterparty and destination; the caller's quote
// of the right kind, unexpired, with its connector; claimed
// once for the record; the connector's compliance fields present (one error each); compliance codes of
// the enums route; and what the provider is told of the counterparty and its destination.
import { findAssociationKind } from '../../auth/associations.ts';
import { findBeneficiary, findPaymentDestination } from '../../beneficiaries/directory.ts';
import type { BeneficiaryRecord, PaymentDestinationRecord } from '../../beneficiaries/repo.ts';
import type { ConnectorRecord } from '../../connectors/repo.ts';
import { connectorOrNotFound } from '../../connectors/service.ts';
import { shortForm } from '../../connectors/transaction-types.ts';
import { type VocabularyName, vocabularies } from '../../connectors/vocabularies.ts';
import { type FieldError, notFound, Problem, serviceUnavailable, unprocessable } from '../../http/problem.ts';
import { findPlatformAccount } from '../../ledger/platform-accounts.ts';
import { providerConfigured } from '../../providers/service.ts';
import { claimQuote, findQuote, isQuoteExpired, type QuoteRecord } from '../../quotes/service.ts';
import type { Tenant } from '../../tenant.ts';
import { transactionRecordIdOf } from '../record-ids.ts';
import { usableWallet } from '../shared-checks.ts';

/** The value at a member path (`individual.idNumber`) of an object, or undefined. */
function valueAt(source: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], source);
}

const isGiven = (value: unknown) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

export function vocabularyErrors(
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

const executedElsewhere = () =>
  new Problem(409, 'This quote was already executed by another payment.', {
    errors: [{ field: 'quoteId', message: 'executes at most once; create a new quote' }],
  });

/**
 * 409 when the quote as read was executed by another record: asked before anything is written for
 * the payment (an off-ramp's limits), so such a request writes nothing. claimOrConflict decides races.
 */
export function unclaimedOrConflict(tenant: Tenant, quote: QuoteRecord, transactionId: string): void {
  if (quote.usedBy && quote.usedBy !== transactionRecordIdOf(tenant, transactionId))
    throw executedElsewhere();
}

/** Claims the quote for the record: 409 when another payment executed it. */
export async function claimOrConflict(tenant: Tenant, quoteId: string, transactionId: string): Promise<void> {
  if (!(await claimQuote(tenant, quoteId, transactionRecordIdOf(tenant, transactionId))))
    throw executedElsewhere();
}

/** What the provider is told about the beneficiary and where to pay: the connector's fields, as held. */
export function instructionParties(beneficiary: BeneficiaryRecord, destination: PaymentDestinationRecord) {
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

/**
 * The connector's ledger settlement account, with its provider configured: without either, nothing
 * could execute, so nothing is accepted (503). The only way a ramp submission meets the provider: it
 * is never called at acceptance, so its trouble never answers a submission (openapi/payment-docs.ts).
 */
export async function settlementOf(tenant: Tenant, connector: ConnectorRecord) {
  const [account, configured] = await Promise.all([
    findPlatformAccount(tenant.environment, `settlement:${connector.id}`),
    providerConfigured(tenant.environment, connector.id),
  ]);
  if (!account || !configured)
    throw serviceUnavailable(
      `Connector ${connector.id} is not set up to execute in ${tenant.environment} yet (settlement account or provider); nothing was accepted.`,
    );
  return account;
}

/**
 * The paying or receiving wallet, the counterparty (a beneficiary of the association) and its
 * destination, read together: 404 naming the member for an unknown counterparty or destination.
 */
export async function rampParties(
  tenant: Tenant,
  body: { walletId: string; paymentDestinationId: string },
  counterparty: { id: string; field: string; noun: 'beneficiary' | 'counterparty' },
) {
  const [wallet, found, destination] = await Promise.all([
    usableWallet(tenant, body.walletId, 'walletId'),
    findBeneficiary(tenant, counterparty.id),
    findPaymentDestination(tenant, counterparty.id, body.paymentDestinationId),
  ]);
  if (!found)
    throw notFound(`No beneficiary ${counterparty.id}.`, [
      { field: counterparty.field, message: 'is not a beneficiary of yours' },
    ]);
  if (!destination)
    throw notFound(`No payment destination ${body.paymentDestinationId} for this ${counterparty.noun}.`, [
      { field: 'paymentDestinationId', message: `is not a destination of this ${counterparty.noun}` },
    ]);
  return { wallet, counterparty: found, destination };
}

/** The caller's quote of the ramp's kind (usableQuote), its connector, and the caller's association. */
export async function quotedConnector(
  tenant: Tenant,
  quoteId: string,
  type: 'offramp' | 'onramp',
  now: Date,
) {
  const quote = await usableQuote(tenant, quoteId, type, now);
  const connector = await connectorOrNotFound(tenant.environment, quote.connectorId);
  const association = await findAssociationKind(tenant);
  if (!association) throw new Error(`No association record for ${tenant.associationId}`);
  return { quote, connector, association };
}
