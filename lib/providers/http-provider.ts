// The provider contract over HTTP (contract.ts), as the local simulator serves it and as a production
// provider's adapter would be put in front of it:
//   POST /connectors/{connectorId}/payouts            PayoutInstruction      → InstructionState
//   POST /connectors/{connectorId}/collections        CollectionInstruction  → InstructionState
//   GET  /connectors/{connectorId}/instructions/{ref}                        → InstructionState | 404
//   POST /connectors/{connectorId}/customers          CustomerRegistration   → CustomerState
//   POST /connectors/{connectorId}/references         ReferenceRequest       → {reference}
//   (sandbox) POST …/customers/{ref}/decision {decision} → CustomerState | 409;
//             POST …/references/{reference}/receipts {amount, currency} → Receipt | 404
// Requests are signed like notifications (signature.ts), with the connector's secret. A 4xx answer is
// a refusal (ProviderRejectedError); a 5xx, a refused connection or no answer within PROVIDER_TIMEOUT_MS
// is the provider being unavailable (ProviderUnavailableError).
import { config } from '../config.ts';
import {
  type CollectionInstruction,
  type CustomerState,
  INSTRUCTION_STATUSES,
  type InstructionState,
  type PayoutInstruction,
  type ProviderAdapter,
  ProviderRejectedError,
  ProviderUnavailableError,
  type Receipt,
} from './contract.ts';
import { SIGNATURE_HEADER, signNotification } from './signature.ts';

function stateOf(value: unknown): InstructionState {
  const v = value as Partial<InstructionState> | null;
  if (
    typeof v?.reference !== 'string' ||
    typeof v.providerReference !== 'string' ||
    !INSTRUCTION_STATUSES.includes(v.status as InstructionState['status'])
  )
    throw new ProviderUnavailableError('The provider answered with an unreadable instruction state', false);
  return {
    reference: v.reference,
    providerReference: v.providerReference,
    status: v.status as InstructionState['status'],
    reason: typeof v.reason === 'string' ? v.reason : null,
  };
}

/** What an on-ramp reference may look like: it travels in paths and on customers' bank statements. */
export const REFERENCE_PATTERN = /^[A-Z0-9]{6,32}$/;

function customerStateOf(value: unknown): CustomerState {
  const v = value as Partial<CustomerState> | null;
  if (typeof v?.reference !== 'string' || !['pending', 'verified', 'rejected'].includes(String(v.status)))
    throw new ProviderUnavailableError('The provider answered with an unreadable customer state', false);
  return {
    reference: v.reference,
    status: v.status as CustomerState['status'],
    reason: typeof v.reason === 'string' ? v.reason : null,
  };
}

export function httpProvider(baseUrl: string, connectorId: string, secret: Buffer): ProviderAdapter {
  const base = `${baseUrl.replace(/\/$/, '')}/connectors/${encodeURIComponent(connectorId)}`;
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    const text = body === undefined ? '' : JSON.stringify(body);
    try {
      return await fetch(`${base}${path}`, {
        method,
        headers: {
          [SIGNATURE_HEADER]: signNotification(secret, text, new Date()),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: text }),
        signal: AbortSignal.timeout(config().PROVIDER_TIMEOUT_MS),
      });
    } catch (error) {
      const name = (error as Error).name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new ProviderUnavailableError(
        timedOut ? 'The provider did not answer in time' : 'The provider could not be reached',
        timedOut,
      );
    }
  }
  async function answered(response: Response): Promise<unknown> {
    if (response.status >= 500)
      throw new ProviderUnavailableError(`The provider answered ${response.status}`, false);
    const body = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    if (response.status >= 400)
      throw new ProviderRejectedError(
        typeof body?.detail === 'string' ? body.detail : `The provider refused it (${response.status})`,
      );
    return body;
  }
  const instructed = async (response: Response) => stateOf(await answered(response));
  return {
    submitPayout: async (instruction: PayoutInstruction) =>
      instructed(await call('POST', '/payouts', instruction)),
    startCollection: async (instruction: CollectionInstruction) =>
      instructed(await call('POST', '/collections', instruction)),
    async readStatus(reference) {
      const response = await call('GET', `/instructions/${encodeURIComponent(reference)}`);
      if (response.status === 404) return null;
      return instructed(response);
    },
    async registerCustomer(registration) {
      const state = await answered(await call('POST', '/customers', registration));
      return customerStateOf(state);
    },
    async issueReference(request) {
      const issued = (await answered(await call('POST', '/references', request))) as { reference?: unknown };
      if (typeof issued?.reference !== 'string' || !REFERENCE_PATTERN.test(issued.reference))
        throw new ProviderUnavailableError('The provider answered with an unreadable reference', false);
      return { reference: issued.reference };
    },
    async decideCustomerForTest(reference, decision) {
      const path = `/customers/${encodeURIComponent(reference)}/decision`;
      const response = await call('POST', path, { decision });
      if (response.status === 409 || response.status === 404) return null;
      return customerStateOf(await answered(response));
    },
    async receiveForTest(reference, payment) {
      const path = `/references/${encodeURIComponent(reference)}/receipts`;
      const response = await call('POST', path, payment);
      if (response.status === 404) return null;
      return (await answered(response)) as Receipt;
    },
    async settleForTest(reference, outcome) {
      const response = await call('POST', `/instructions/${encodeURIComponent(reference)}/${outcome}`, {});
      if (response.status === 409 || response.status === 404) return null;
      return instructed(response);
    },
  };
}
