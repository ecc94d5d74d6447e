// On-ramp acceptance (docs/decisions/ramp-acceptance.md): a registered counterparty (`senderId`, a
// beneficiary of the association) pays from its MOBILE_MONEY destination, through a connector, into one
// of the caller's own Verified wallets, against an on-ramp quote. The checks, each naming the member:
// the wallet (404/403), the counterparty and its destination (404; not mobile money or not the
// connector's country and currency 422), the quote (404 not ours, 422 another type, expired, or priced
// for another counterparty, destination or corridor: the counterparty's classification gives the
// transaction type), the connector's required fields on the body, the counterparty and its destination
// (422, one error each), notify flags; then the connector's limits (422 on `amount`), checked and
// reserved at once (usage.ts), and the quote claimed (409 when already executed).
import { shortForm, transactionTypeOf } from '../../connectors/transaction-types.ts';
import { type FieldError, unprocessable } from '../../http/problem.ts';
import { destinationErrors } from '../../quotes/service.ts';
import type { Tenant } from '../../tenant.ts';
import type { Draft } from '../hand-off.ts';
import { accept } from '../idempotency.ts';
import { transactionRecordIdOf } from '../record-ids.ts';
import type { Onramp } from '../schema.ts';
import { notifyTarget, onRecord, registryAsset } from '../shared-checks.ts';
import {
  claimOrConflict,
  complianceErrors,
  quotedConnector,
  rampParties,
  settlementOf,
  vocabularyErrors,
} from './checks.ts';
import { rampDraft } from './draft.ts';
import { connectorLimits } from './limits.ts';
import { reserveRampUseFor } from './usage.ts';

/** Sender fields the body may carry (the rest are read from the counterparty's record). */
const BODY_MEMBERS = new Set([
  'purpose',
  'senderSourceOfFunds',
  'senderIdCountryIsoCode',
  'receiverSourceOfFunds',
]);

async function onrampDraft(tenant: Tenant, body: Onramp, now: Date): Promise<Draft> {
  const parties = await rampParties(tenant, body, {
    id: body.senderId,
    field: 'senderId',
    noun: 'counterparty',
  });
  const { counterparty: sender, destination } = parties;
  if (destination.method !== 'MOBILE_MONEY')
    throw unprocessable('On-ramps collect from mobile money.', [
      { field: 'paymentDestinationId', message: `is a ${destination.method} destination, not MOBILE_MONEY` },
    ]);
  const { quote, connector, association } = await quotedConnector(tenant, body.quoteId, 'onramp', now);
  // Payer first: the counterparty pays the caller.
  const derivedType = transactionTypeOf(sender.kind, association);
  const mismatched: FieldError[] = [
    ...(quote.beneficiaryId !== null && quote.beneficiaryId !== body.senderId
      ? [{ field: 'senderId', message: 'is not the counterparty the quote was priced for' }]
      : []),
    ...(derivedType !== quote.transactionType
      ? [
          {
            field: 'senderId',
            message: `makes this a ${shortForm(derivedType)} collection; the quote was priced for ${shortForm(quote.transactionType)}`,
          },
        ]
      : []),
    ...(quote.paymentDestinationId !== null && quote.paymentDestinationId !== body.paymentDestinationId
      ? [{ field: 'paymentDestinationId', message: 'is not the destination the quote was priced for' }]
      : []),
    ...destinationErrors(connector, connector.acceptedAsset, destination),
  ];
  if (mismatched.length) throw unprocessable('The collection does not match its quote.', mismatched);

  // The counterparty's ID country: given on the body, or held on its record.
  const senderFields = {
    ...sender,
    senderIdCountryIsoCode: body.senderIdCountryIsoCode ?? sender.individual?.idCountryIsoCode2,
    senderSourceOfFunds: body.senderSourceOfFunds,
    purpose: body.purpose,
  };
  const missing = complianceErrors(
    connector,
    quote,
    { sender: senderFields, beneficiary: body, destination },
    { sender: 'sender.', beneficiary: '', destination: 'paymentDestination.' },
  ).map((e) => {
    const member = e.field.replace(/^sender\./, '');
    return BODY_MEMBERS.has(member) ? { ...e, field: member } : e;
  });
  const compliance = [
    ...vocabularyErrors(body, {
      purpose: 'purposeOfRemittance',
      senderSourceOfFunds: 'sourceOfFunds',
      receiverSourceOfFunds: 'sourceOfFunds',
    }),
    ...missing,
  ];
  if (compliance.length)
    throw unprocessable('Compliance fields the connector requires are missing.', compliance);

  // The association has no registered contact yet: a notify flag has nowhere to go (422).
  const notify = notifyTarget({ email: null, mobile: null }, body);
  const receiving = await registryAsset(tenant, quote.receiveCurrency, 'quoteId');
  const settlement = await settlementOf(tenant, connector);
  // The connector's own limits, checked and reserved as an off-ramp's are (usage.ts); a quote
  // another record executed gives the use back.
  const transactionRecordId = transactionRecordIdOf(tenant, body.transactionId);
  await reserveRampUseFor(
    tenant,
    {
      connector,
      transactionRecordId,
      amount: quote.sendAmount,
      limits: connectorLimits(connector.limits),
      now,
    },
    () => claimOrConflict(tenant, quote.quoteId, body.transactionId),
  );
  return rampDraft('onramp', parties, { quote, connector, settlement, notify }, onRecord(receiving), body);
}

export const payOnramp = (tenant: Tenant, body: Onramp, now: Date, requestId?: string) =>
  accept(tenant, 'payOnramp', body, now, () => onrampDraft(tenant, body, now), requestId);
