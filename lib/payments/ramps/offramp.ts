// Off-ramp acceptance (docs/decisions/ramp-acceptance.md): a wallet pays a beneficiary's BANK, MOBILE_MONEY
// or cash-pickup destination through a connector, against a quote. Everything priced comes from the quote;
// the body names who pays whom and the compliance answers. The checks, in order, each a 4xx naming the
// member: the wallet (404/403), the beneficiary and destination (404, CRYPTO 422), the quote (404 not ours,
// 422 wrong type, expired or inconsistent with the body), the connector's compliance fields (422, one error
// per missing field), notify flags, the connector set up to execute (503); then the limits (422 on `amount`),
// checked and reserved at once (usage.ts), what the wallet can spend (422 on `amount`, spendable.ts), the
// quote claimed for this record (409 when another record executed it) and the record written (idempotency.ts
// accept()).
import type { BeneficiaryRecord, PaymentDestinationRecord } from '../../beneficiaries/repo.ts';
import type { ConnectorRecord } from '../../connectors/repo.ts';
import { shortForm, transactionTypeOf } from '../../connectors/transaction-types.ts';
import { type FieldError, unprocessable } from '../../http/problem.ts';
import { destinationErrors, type QuoteRecord } from '../../quotes/service.ts';
import type { Tenant } from '../../tenant.ts';
import type { Draft } from '../hand-off.ts';
import { accept } from '../idempotency.ts';
import { transactionRecordIdOf } from '../record-ids.ts';
import type { Offramp } from '../schema.ts';
import { notifyTarget, onRecord, registryAsset } from '../shared-checks.ts';
import { assertSpendable } from '../spendable.ts';
import {
  claimOrConflict,
  complianceErrors,
  quotedConnector,
  rampParties,
  settlementOf,
  unclaimedOrConflict,
  vocabularyErrors,
} from './checks.ts';
import { rampDraft } from './draft.ts';
import { limitsFor, type Standing } from './limits.ts';
import { reserveRampUseFor } from './usage.ts';

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

async function offrampDraft(tenant: Tenant, body: Offramp, now: Date): Promise<Draft> {
  const parties = await rampParties(tenant, body, {
    id: body.beneficiaryId,
    field: 'beneficiaryId',
    noun: 'beneficiary',
  });
  const { wallet, counterparty: beneficiary, destination } = parties;
  if (destination.method === 'CRYPTO')
    throw unprocessable('Off-ramps pay fiat destinations.', [
      {
        field: 'paymentDestinationId',
        message: 'is a CRYPTO destination: pay it with POST /payments/p2p/beneficiary or a swap',
      },
    ]);
  const { quote, connector, association } = await quotedConnector(tenant, body.quoteId, 'offramp', now);
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

  const person = beneficiary.individual;
  const contact = person ?? beneficiary.business;
  const notify = notifyTarget({ email: contact?.email ?? null, mobile: contact?.mobile ?? null }, body);
  const sending = await registryAsset(tenant, body.sendingAssetCode, 'sendingAssetCode');
  const settlement = await settlementOf(tenant, connector);
  // The limits, checked against this association's uses and reserved in the same write (usage.ts):
  // concurrent submissions are checked one after another. A quote another record executed gives the
  // use back.
  const limits = limitsFor(
    connector.limits,
    connector.acceptedAsset,
    destination.verificationStatus,
    standingOf(beneficiary),
  );
  unclaimedOrConflict(tenant, quote, body.transactionId);
  const transactionRecordId = transactionRecordIdOf(tenant, body.transactionId);
  await reserveRampUseFor(
    tenant,
    { connector, transactionRecordId, amount: quote.sendAmount, limits, now },
    async () => {
      // What leaves the wallet is the quote's total: the amount and the fee on top.
      await assertSpendable([
        { from: wallet, asset: onRecord(sending), amount: quote.total, field: 'amount' },
      ]);
      await claimOrConflict(tenant, quote.quoteId, body.transactionId);
    },
  );
  return rampDraft('offramp', parties, { quote, connector, settlement, notify }, onRecord(sending), body);
}

export const payOfframp = (tenant: Tenant, body: Offramp, now: Date, requestId?: string) =>
  accept(tenant, 'payOfframp', body, now, () => offrampDraft(tenant, body, now), requestId);
