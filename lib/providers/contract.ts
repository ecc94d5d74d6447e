// The provider contract: what the gateway asks of the provider behind a connector, whoever it is. A
// production provider gets an adapter of its own that speaks its API and answers in these terms; the
// local stack's provider simulator (local/provider-simulator.ts) speaks this contract natively over
// HTTP (http-provider.ts), for every seed connector.
//
// Instructions are idempotent by OUR reference (the transaction record id): sending one again returns
// the instruction the provider already holds, never a second payout or collection. Outcomes arrive
// later, asynchronously, as notifications signed with the connector's secret (signature.ts).
import type { Environment } from '../tenant.ts';

/** Where an instruction stands at the provider. */
export type InstructionStatus =
  /** Received; not sent out yet. */
  | 'pending'
  /** With the bank, the mobile-money operator or the cash agent. */
  | 'processing'
  /** Paid out (payout) or collected (collection). */
  | 'completed'
  /** Refused or abandoned by the provider: nothing was paid or collected. */
  | 'failed'
  /** Paid out, then sent back by the receiving institution (payouts only). */
  | 'returned';

export const INSTRUCTION_STATUSES: readonly InstructionStatus[] = [
  'pending',
  'processing',
  'completed',
  'failed',
  'returned',
];

export interface PayoutInstruction {
  /** Our reference: the transaction record id. The provider keys the instruction by it. */
  reference: string;
  connectorId: string;
  /** Decimal string, in `currency`: what the beneficiary receives. */
  amount: string;
  currency: string;
  /** Who and where: the beneficiary's names and the destination's details as the connector needs them. */
  beneficiary: Record<string, unknown>;
  destination: Record<string, unknown>;
  /** The caller's toRef: printed on the beneficiary's statement. */
  statementReference: string | null;
}

export interface CollectionInstruction {
  reference: string;
  connectorId: string;
  /** Decimal string, in `currency`: what the counterparty is asked to pay. */
  amount: string;
  currency: string;
  payer: Record<string, unknown>;
  source: Record<string, unknown>;
  statementReference: string | null;
}

/** The provider's view of one instruction. */
export interface InstructionState {
  reference: string;
  /** The provider's own id for it: the record's `externalReference`. */
  providerReference: string;
  status: InstructionStatus;
  /** Why it failed or was returned, in the provider's words. */
  reason: string | null;
}

/** A signed status notification, once its signature is verified (signature.ts). */
export interface ProviderNotification extends InstructionState {
  /** Unique per notification: a second delivery of the same id is a replay, refused. */
  notificationId: string;
  kind: 'payout' | 'collection';
}

/**
 * Bespoke connectors: a customer the integrator registers with the provider, under OUR reference for
 * this review (a new review, a new reference). The decision arrives later as a `customer` notification.
 */
export interface CustomerRegistration {
  reference: string;
  connectorId: string;
  kind: 'individual' | 'business';
  identity: Record<string, unknown>;
}

export type CustomerStatus = 'pending' | 'verified' | 'rejected';

export interface CustomerState {
  reference: string;
  status: CustomerStatus;
  reason: string | null;
}

/** An on-ramp reference the provider issues for a verified customer: what the customer pays against. */
export interface ReferenceRequest {
  /** Our id for the binding (the reference record's routeId): the provider issues one reference per id. */
  routeId: string;
  connectorId: string;
  /** The customer's review reference (CustomerRegistration.reference). */
  customerReference: string;
}

/** A customer's payment against a reference, as the provider reports it (a `receipt` notification). */
export interface Receipt {
  /** The provider's id of the payment: unique, and what the gateway pays it out once by. */
  receiptId: string;
  reference: string;
  /** Decimal string: what the customer paid, in `currency`, before any fee. */
  amount: string;
  currency: string;
}

export interface ProviderAdapter {
  submitPayout(instruction: PayoutInstruction): Promise<InstructionState>;
  registerCustomer(registration: CustomerRegistration): Promise<CustomerState>;
  issueReference(request: ReferenceRequest): Promise<{ reference: string }>;
  /** Sandbox providers only: decides a pending customer now (null when it is decided already). */
  decideCustomerForTest?(reference: string, decision: 'verified' | 'rejected'): Promise<CustomerState | null>;
  /** Sandbox providers only: a customer pays into a reference (null: the provider knows no such reference). */
  receiveForTest?(reference: string, payment: { amount: string; currency: string }): Promise<Receipt | null>;
  startCollection(instruction: CollectionInstruction): Promise<InstructionState>;
  readStatus(reference: string): Promise<InstructionState | null>;
  /**
   * Sandbox providers only: moves an instruction as the test helpers ask (complete, fail, return); null
   * when its state does not allow that move. The outcome still arrives as a notification.
   */
  settleForTest?(reference: string, outcome: TestOutcome): Promise<InstructionState | null>;
}

export type TestOutcome = 'complete' | 'fail' | 'return';

/** The provider refused the instruction outright (a 4xx): the caller is told at once (502). */
export class ProviderRejectedError extends Error {
  override name = 'ProviderRejectedError';
}

/** The provider could not be reached, or answered 5xx (503), or did not answer in time (504). */
export class ProviderUnavailableError extends Error {
  override name = 'ProviderUnavailableError';
  readonly timedOut: boolean;
  constructor(message: string, timedOut: boolean) {
    super(message);
    this.timedOut = timedOut;
  }
}

/** A provider of an environment the gateway has no adapter configured for. */
export class ProviderNotConfiguredError extends Error {
  override name = 'ProviderNotConfiguredError';
  constructor(environment: Environment, connectorId: string) {
    super(`No provider is configured for connector ${connectorId} in ${environment}`);
  }
}
