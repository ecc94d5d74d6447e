// Ramps in tests: an on-ramp's counterparty and quote, and the provider's signed notifications sent
// straight to the gateway's provider route, in whatever order and at whatever moment a test needs.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sendProviderReport } from '../../local/provider-reports.ts';
import { as, baseUrl, type Caller } from './api.ts';
import {
  bankDestination,
  beneficiaryAddress,
  compliantIndividual,
  keMobileMoney,
  ONRAMP_CONNECTOR_ID,
  RAMP_CONNECTOR_ID,
} from './fixtures.ts';
import { recordWhen, submit } from './payments.ts';

export async function newCounterparty(
  caller: Caller,
  individual: Record<string, unknown>,
  destination: Record<string, unknown> = keMobileMoney,
) {
  const sender = await as(caller, '/beneficiaries', { method: 'POST', body: { individual } });
  assert.equal(sender.status, 201, JSON.stringify(sender.body));
  const momo = await as(caller, `/beneficiaries/${sender.body.id}/payment-destinations`, {
    method: 'POST',
    body: destination,
  });
  assert.equal(momo.status, 201, JSON.stringify(momo.body));
  return { senderId: sender.body.id as string, paymentDestinationId: momo.body.id as string };
}

export async function onrampQuote(
  caller: Caller,
  from: { senderId: string; paymentDestinationId: string },
  amount = 1300,
) {
  const quote = await as(caller, '/quotes?type=onramp', {
    method: 'POST',
    body: {
      amount,
      connectorId: ONRAMP_CONNECTOR_ID,
      beneficiaryId: from.senderId,
      paymentDestinationId: from.paymentDestinationId,
    },
  });
  assert.equal(quote.status, 201, JSON.stringify(quote.body));
  return quote.body;
}

/** Sends the provider's signed report of an instruction (a new notification id each time): its answer. */
export async function reportInstruction(
  connectorId: string,
  report: {
    kind: 'payout' | 'collection';
    reference: string;
    providerReference: string;
    status: 'pending' | 'processing' | 'completed' | 'failed' | 'returned';
    reason?: string | null;
  },
): Promise<number> {
  return sendProviderReport(baseUrl(), connectorId, { reason: null, ...report });
}

/**
 * An on-ramp held at the provider (toRef HOLD…: the simulator waits for the sandbox helpers or the
 * reports a test sends): its record id and its quote.
 */
export async function heldOnramp(
  caller: Caller,
  into: { walletId: string; payer: { senderId: string; paymentDestinationId: string } },
  amount: number,
  toRef: string,
) {
  const quote = await onrampQuote(caller, into.payer, amount);
  const answer = await submit(caller, 'onramp', {
    transactionId: randomUUID(),
    walletId: into.walletId,
    ...into.payer,
    quoteId: quote.quoteId,
    senderSourceOfFunds: 'SALARY',
    toRef,
  });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  return { id: answer.body.transactionRecordId as string, quote };
}

/** A 10 USDC off-ramp from `walletId` to a new South African payee, held at the provider once instructed. */
export async function heldOfframp(caller: Caller, walletId: string, toRef: string) {
  const beneficiary = await as(caller, '/beneficiaries', {
    method: 'POST',
    body: { individual: compliantIndividual, addresses: [beneficiaryAddress] },
  });
  const destination = await as(caller, `/beneficiaries/${beneficiary.body.id}/payment-destinations`, {
    method: 'POST',
    body: bankDestination,
  });
  const payee = { beneficiaryId: beneficiary.body.id, paymentDestinationId: destination.body.id };
  const quote = await as(caller, '/quotes', {
    method: 'POST',
    body: { amount: 10, connectorId: RAMP_CONNECTOR_ID, ...payee },
  });
  assert.equal(quote.status, 201, JSON.stringify(quote.body));
  const answer = await submit(caller, 'offramp', {
    transactionId: randomUUID(),
    walletId,
    ...payee,
    quoteId: quote.body.quoteId,
    sendingAssetCode: 'USDC',
    purpose: 'FAMILY_SUPPORT',
    sourceOfFunds: 'SALARY',
    toRef,
  });
  assert.equal(answer.status, 202, JSON.stringify(answer.body));
  const id: string = answer.body.transactionRecordId;
  const held = await recordWhen(caller, id, (r) => r.status === 'processing' && r.externalReference !== null);
  return { id, providerReference: held.externalReference as string };
}
