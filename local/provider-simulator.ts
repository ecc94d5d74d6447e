// The provider simulator: a real HTTP service on loopback that speaks the provider contract
// (lib/providers/http-provider.ts) for every seed connector of both environments, as a bank, mobile-money
// or cash-pickup provider would. The local stack starts it beside the ledgers.
//
// - Instructions are idempotent by our reference: the same reference again answers the instruction held.
// - Each moves asynchronously: `pending` on receipt, `processing` a moment later, `completed` after
//   `completeAfterMs` (the documented default, 3 s). One whose statement reference (toRef) starts with
//   HOLD stays `processing` until a test helper moves it (POST /v1/sandbox/transactions/{id}/…).
// - Every change is notified to the gateway's provider-notification route, signed with the connector's
//   secret, and retried (a few times, backing off) until the gateway answers 2xx.
// - Test control: GET /{environment}/connectors/{id}/instructions/{ref} (its state, `submissions`: how
//   often it was sent under that reference, and `withStatementReference`: how many instructions the provider
//   holds with its statement reference), POST …/instructions/{ref}/{complete|fail|return}, and
//   POST /faults {mode: 'unavailable' | 'slow' | 'reject', count, statementReference?} for the next
//   instructions (only those with that statement reference, when given, so tests running side by side
//   do not meet each other's faults); an empty body clears them.
// - Bespoke connectors: a registered customer is decided `decideAfterMs` after registration (the
//   documented default, 2 s): verified, unless the customer's lastName or registeredName starts with
//   REJECT (rejected) or HOLD (pending until POST …/customers/{ref}/decision {decision}). A verified
//   customer gets on-ramp references (`PG` and ten digits, one per routeId); POST
//   …/references/{reference}/receipts {amount, currency} is a customer paying in: a `receipt`
//   notification with a new receiptId.
import { randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type {
  CustomerState,
  InstructionState,
  InstructionStatus,
  Receipt,
} from '../lib/providers/contract.ts';
import {
  SIGNATURE_HEADER,
  signNotification,
  verifyNotificationSignature,
} from '../lib/providers/signature.ts';
import type { Environment } from '../lib/tenant.ts';

export interface SimulatedConnector {
  environment: Environment;
  connectorId: string;
  secret: Buffer;
}

export interface ProviderSimulatorOptions {
  port: number;
  connectors: SimulatedConnector[];
  /** Where notifications go: the gateway's route for this environment and connector. */
  notificationUrl: (environment: Environment, connectorId: string) => string;
  /** How long after receipt an instruction left alone completes; default 3000. */
  completeAfterMs?: number;
  /** How long after registration a customer left alone is decided; default 2000. */
  decideAfterMs?: number;
}

interface Customer extends CustomerState {
  environment: Environment;
  connectorId: string;
  timer?: NodeJS.Timeout;
}

interface IssuedReference {
  reference: string;
  routeId: string;
  customerReference: string;
}

export interface ProviderSimulator {
  /** The base URL of one environment's provider (PROVIDER_URL_<ENV>). */
  urlOf(environment: Environment): string;
  stop(): Promise<void>;
}

type Fault = { mode: 'unavailable' | 'slow' | 'reject'; count: number; statementReference?: string };

interface Instruction extends InstructionState {
  environment: Environment;
  connectorId: string;
  kind: 'payout' | 'collection';
  hold: boolean;
  body: Record<string, unknown>;
  /**
   * How many times it was sent under its reference: one payout however many (the tests read it from GET,
   * with withStatementReference).
   */
  submissions: number;
  timers: NodeJS.Timeout[];
}

const PROCESSING_AFTER_MS = 100;
const NOTIFY_ATTEMPTS = 6;
const NOTIFY_BACKOFF_MS = 250;
/** Legal moves by test control; `processing` is also where receipt leads. */
const MOVES: Record<'complete' | 'fail' | 'return', { from: InstructionStatus[]; to: InstructionStatus }> = {
  complete: { from: ['pending', 'processing'], to: 'completed' },
  fail: { from: ['pending', 'processing'], to: 'failed' },
  return: { from: ['completed'], to: 'returned' },
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const stateOf = (i: Instruction): InstructionState => ({
  reference: i.reference,
  providerReference: i.providerReference,
  status: i.status,
  reason: i.reason,
});

export async function startProviderSimulator(options: ProviderSimulatorOptions): Promise<ProviderSimulator> {
  const completeAfterMs = options.completeAfterMs ?? 3000;
  const decideAfterMs = options.decideAfterMs ?? 2000;
  const secrets = new Map(options.connectors.map((c) => [`${c.environment}/${c.connectorId}`, c.secret]));
  const instructions = new Map<string, Instruction>();
  const customers = new Map<string, Customer>();
  /** By environment/connector/reference, and by environment/connector/routeId (one reference per route). */
  const references = new Map<string, IssuedReference>();
  const faults: Fault[] = [];
  let stopped = false;

  const notify = (instruction: Instruction) =>
    deliver(instruction.environment, instruction.connectorId, {
      notificationId: randomUUID(),
      kind: instruction.kind,
      ...stateOf(instruction),
    });

  /** Sends one notification to the gateway, signed, retried until it answers 2xx. */
  async function deliver(
    environment: Environment,
    connectorId: string,
    notification: Record<string, unknown>,
  ): Promise<void> {
    const secret = secrets.get(`${environment}/${connectorId}`) as Buffer;
    const body = JSON.stringify(notification);
    for (let attempt = 1; attempt <= NOTIFY_ATTEMPTS && !stopped; attempt++) {
      try {
        const response = await fetch(options.notificationUrl(environment, connectorId), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [SIGNATURE_HEADER]: signNotification(secret, body, new Date()),
          },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (response.ok) return;
      } catch {
        // the gateway is not there (yet, or any more): try again
      }
      await pause(NOTIFY_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }

  function move(instruction: Instruction, to: InstructionStatus, reason: string | null = null): void {
    instruction.status = to;
    instruction.reason = reason;
    if (to !== 'processing') for (const timer of instruction.timers.splice(0)) clearTimeout(timer);
    void notify({ ...instruction });
  }

  /**
   * How many instructions (payouts or collections, each under a reference of its own) this provider holds
   * with the instruction's statement reference: a payment instructed twice under two references counts 2,
   * which `submissions` (per reference, merged) cannot show.
   */
  const withStatementReference = (of: Instruction): number =>
    [...instructions.values()].filter(
      (i) =>
        i.environment === of.environment &&
        i.connectorId === of.connectorId &&
        i.body.statementReference === of.body.statementReference,
    ).length;

  function receive(
    environment: Environment,
    connectorId: string,
    kind: Instruction['kind'],
    body: Record<string, unknown>,
  ): { status: number; body: unknown } {
    const reference = typeof body.reference === 'string' ? body.reference : '';
    if (!/^[0-9a-f-]{36}$/.test(reference)) return { status: 400, body: { detail: 'reference is required' } };
    const key = `${environment}/${connectorId}/${reference}`;
    const held = instructions.get(key);
    if (held) {
      held.submissions += 1;
      return { status: 200, body: stateOf(held) };
    }
    const instruction: Instruction = {
      environment,
      connectorId,
      kind,
      reference,
      providerReference: `SIM-${randomUUID().slice(0, 13).toUpperCase()}`,
      status: 'pending',
      reason: null,
      hold: String(body.statementReference ?? '').startsWith('HOLD'),
      body,
      submissions: 1,
      timers: [],
    };
    instructions.set(key, instruction);
    instruction.timers.push(
      setTimeout(() => {
        if (instruction.status === 'pending') move(instruction, 'processing');
      }, PROCESSING_AFTER_MS),
    );
    if (!instruction.hold)
      instruction.timers.push(
        setTimeout(() => {
          if (instruction.status === 'pending' || instruction.status === 'processing')
            move(instruction, 'completed');
        }, completeAfterMs),
      );
    return { status: 201, body: stateOf(instruction) };
  }

  function decide(customer: Customer, status: 'verified' | 'rejected'): void {
    clearTimeout(customer.timer);
    customer.status = status;
    customer.reason =
      status === 'rejected' ? 'The provider could not verify this customer (simulated).' : null;
    void deliver(customer.environment, customer.connectorId, {
      notificationId: randomUUID(),
      kind: 'customer',
      reference: customer.reference,
      status,
      reason: customer.reason,
    });
  }

  const customerState = (c: Customer): CustomerState => ({
    reference: c.reference,
    status: c.status,
    reason: c.reason,
  });

  /** The bespoke routes: customers, references and customers paying in. */
  function bespoke(
    environment: Environment,
    connectorId: string,
    path: string,
    body: Record<string, unknown>,
  ): { status: number; body: unknown } | null {
    const at = `${environment}/${connectorId}`;
    if (path === 'customers') {
      const reference = String(body.reference ?? '');
      if (!/^[0-9a-f-]{36}$/.test(reference))
        return { status: 400, body: { detail: 'reference is required' } };
      const held = customers.get(`${at}/${reference}`);
      if (held) return { status: 200, body: customerState(held) };
      const identity = (body.identity ?? {}) as Record<string, unknown>;
      const name = String(identity.lastName ?? identity.registeredName ?? '').toUpperCase();
      const customer: Customer = { environment, connectorId, reference, status: 'pending', reason: null };
      customers.set(`${at}/${reference}`, customer);
      if (!name.startsWith('HOLD'))
        customer.timer = setTimeout(
          () => decide(customer, name.startsWith('REJECT') ? 'rejected' : 'verified'),
          decideAfterMs,
        );
      return { status: 201, body: customerState(customer) };
    }
    if (path === 'references') {
      const routeId = String(body.routeId ?? '');
      const customer = customers.get(`${at}/${String(body.customerReference ?? '')}`);
      if (customer?.status !== 'verified')
        return { status: 422, body: { detail: 'The customer is not verified.' } };
      const issued = references.get(`${at}/route/${routeId}`) ?? {
        reference: `PG${String(randomInt(10 ** 9, 10 ** 10))}`,
        routeId,
        customerReference: customer.reference,
      };
      references.set(`${at}/route/${routeId}`, issued);
      references.set(`${at}/${issued.reference}`, issued);
      return { status: 200, body: { reference: issued.reference } };
    }
    const decision = /^customers\/([0-9a-f-]{36})\/decision$/.exec(path);
    if (decision) {
      const customer = customers.get(`${at}/${decision[1]}`);
      if (!customer) return { status: 404, body: { detail: 'No such customer.' } };
      const to = body.decision === 'rejected' ? 'rejected' : 'verified';
      if (customer.status !== 'pending')
        return customer.status === to
          ? { status: 200, body: customerState(customer) }
          : { status: 409, body: { detail: `The customer is ${customer.status} already.` } };
      decide(customer, to);
      return { status: 200, body: customerState(customer) };
    }
    const paying = /^references\/([A-Z0-9]{6,32})\/receipts$/.exec(path);
    if (paying) {
      if (!references.has(`${at}/${paying[1]}`))
        return { status: 404, body: { detail: 'No such reference.' } };
      const receipt: Receipt = {
        receiptId: `RCPT-${randomUUID()}`,
        reference: paying[1] as string,
        amount: String(body.amount),
        currency: String(body.currency),
      };
      void deliver(environment, connectorId, { notificationId: randomUUID(), kind: 'receipt', ...receipt });
      return { status: 201, body: receipt };
    }
    return null;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const text = await readText(req);
    if (req.method === 'POST' && url.pathname === '/faults') {
      const fault = JSON.parse(text || '{}') as Partial<Fault>;
      if (fault.mode)
        faults.push({
          mode: fault.mode,
          count: fault.count ?? 1,
          ...(fault.statementReference ? { statementReference: fault.statementReference } : {}),
        });
      else faults.splice(0);
      send(res, 200, { faults });
      return;
    }
    const m =
      /^\/(sandbox|production)\/connectors\/([a-z0-9-]+)\/(payouts|collections|instructions\/([0-9a-f-]{36})(?:\/(complete|fail|return))?|((?:customers|references)(?:\/[A-Za-z0-9-]+\/(?:decision|receipts))?))$/.exec(
        url.pathname,
      );
    const environment = m?.[1] as Environment | undefined;
    const connectorId = m?.[2] ?? '';
    const secret = environment && secrets.get(`${environment}/${connectorId}`);
    if (!m || !environment || !secret) {
      send(res, 404, { detail: 'No such connector or route.' });
      return;
    }
    if (
      !verifyNotificationSignature(
        secret,
        req.headers[SIGNATURE_HEADER] as string | undefined,
        text,
        new Date(),
      )
    ) {
      send(res, 401, { detail: 'Bad signature.' });
      return;
    }
    if (m[6]) {
      const answer =
        req.method === 'POST'
          ? bespoke(environment, connectorId, m[6], JSON.parse(text || '{}') as Record<string, unknown>)
          : null;
      if (answer) send(res, answer.status, answer.body);
      else send(res, 404, { detail: 'No such route.' });
      return;
    }
    const reference = m[4];
    if (reference) {
      const instruction = instructions.get(`${environment}/${connectorId}/${reference}`);
      if (!instruction) {
        send(res, 404, { detail: 'No such instruction.' });
        return;
      }
      const action = m[5] as keyof typeof MOVES | undefined;
      if (req.method === 'GET' && !action) {
        send(res, 200, {
          ...stateOf(instruction),
          submissions: instruction.submissions,
          withStatementReference: withStatementReference(instruction),
        });
        return;
      }
      // Returned is a payout's state only (the provider contract): a collection is never returned.
      const returnable = action !== 'return' || instruction.kind === 'payout';
      const legal = action && req.method === 'POST' && returnable ? MOVES[action] : undefined;
      // Asked for where it already is: answered as it stands, nothing is notified again.
      if (legal && instruction.status === legal.to) {
        send(res, 200, stateOf(instruction));
        return;
      }
      if (!legal?.from.includes(instruction.status)) {
        send(res, 409, {
          detail: `A ${instruction.status} instruction cannot be moved that way.`,
          ...stateOf(instruction),
        });
        return;
      }
      const reason =
        action === 'fail'
          ? 'Declined by the provider (simulated).'
          : action === 'return'
            ? 'Returned by the receiving institution (simulated).'
            : null;
      move(instruction, legal.to, reason);
      send(res, 200, stateOf(instruction));
      return;
    }
    if (req.method !== 'POST') {
      send(res, 405, { detail: 'POST only.' });
      return;
    }
    const instructionBody = JSON.parse(text || '{}') as Record<string, unknown>;
    const at = faults.findIndex(
      (f) =>
        f.statementReference === undefined || f.statementReference === instructionBody.statementReference,
    );
    const fault = faults[at];
    if (fault) {
      fault.count -= 1;
      if (fault.count <= 0) faults.splice(at, 1);
      if (fault.mode === 'unavailable') {
        send(res, 503, { detail: 'The provider is unavailable (simulated).' });
        return;
      }
      if (fault.mode === 'reject') {
        send(res, 422, { detail: 'The provider refused the instruction (simulated).' });
        return;
      }
      await pause(60_000);
    }
    const answer = receive(
      environment,
      connectorId,
      m[3] === 'payouts' ? 'payout' : 'collection',
      instructionBody,
    );
    send(res, answer.status, answer.body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => send(res, 500, { detail: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return {
    urlOf: (environment) => `http://127.0.0.1:${options.port}/${environment}`,
    stop: async () => {
      stopped = true;
      for (const instruction of instructions.values())
        for (const timer of instruction.timers) clearTimeout(timer);
      for (const customer of customers.values()) clearTimeout(customer.timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
