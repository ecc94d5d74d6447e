// The Webhooks tag of the OpenAPI document: what a receiver must do with every delivery, with runnable
// verification code for Node and Python (test/unit/webhook-verification.test.ts runs both on deliveries
// the gateway's own signing code makes), and how events are made, delivered and retried.
import { md } from './markdown.ts';

/** Node (no dependency), with the raw body as received: a fenced block of the tag's description. */
const NODE_VERIFICATION = [
  "import { createHmac, timingSafeEqual } from 'node:crypto';",
  '',
  '// As POST /webhooks answered them, stored by you: never read from a delivery.',
  'const WEBHOOK_ID = process.env.WEBHOOK_ID;',
  'const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET; // whsec_…',
  'const TOLERANCE_MS = 5 * 60 * 1000;',
  '',
  'const same = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));',
  'const recent = (ms, now) => Number.isSafeInteger(ms) && Math.abs(now - ms) <= TOLERANCE_MS;',
  '',
  '/** The event of a delivery (raw body text, lower-case header names), or throws why it is refused. */',
  'export function verifyDelivery(body, headers, now = Date.now()) {',
  "  const id = headers['webhook-id'] ?? '';",
  "  const ts = headers['webhook-timestamp'] ?? '';",
  '  if (!id || !/^\\d+$/.test(ts) || !recent(Number(ts) * 1000, now))',
  "    throw new Error('webhook-timestamp is missing or more than 5 minutes off');",
  "  const key = Buffer.from(WEBHOOK_SECRET.slice('whsec_'.length), 'base64');",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal, shown as text.
  "  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64');",
  "  const signatures = (headers['webhook-signature'] ?? '').split(' ');",
  "  if (!signatures.some((s) => s.startsWith('v1,') && same(s.slice(3), expected)))",
  "    throw new Error('webhook-signature does not match');",
  "  if (headers['x-webhook-id'] !== WEBHOOK_ID) throw new Error('X-Webhook-Id is not this registration');",
  "  const wts = headers['x-webhook-ts'] ?? '';",
  '  if (!/^\\d+$/.test(wts) || !recent(Number(wts), now))',
  "    throw new Error('X-Webhook-Ts is missing or more than 5 minutes off');",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the snippet's own template literal, shown as text.
  "  const service = createHmac('sha256', WEBHOOK_ID).update(`${wts}.${body}`).digest('hex');",
  "  if (!same(headers['x-service-signature'] ?? '', service))",
  "    throw new Error('X-Service-Signature does not match');",
  '  return JSON.parse(body);',
  '}',
];

/** Python (standard library), with the raw body bytes and lower-case header names. */
const PYTHON_VERIFICATION = [
  'import base64, hashlib, hmac, json, os, time',
  '',
  '# As POST /webhooks answered them, stored by you: never read from a delivery.',
  'WEBHOOK_ID = os.environ["WEBHOOK_ID"]',
  'WEBHOOK_SECRET = os.environ["WEBHOOK_SECRET"]  # whsec_...',
  'TOLERANCE_SECONDS = 5 * 60',
  '',
  '',
  'def _same(a, b):',
  '    return hmac.compare_digest(a.encode(), b.encode())',
  '',
  '',
  'def verify_delivery(body, headers, now=None):',
  '    """The event of a delivery (raw body bytes), or raises ValueError saying why it is refused."""',
  '    now = time.time() if now is None else now',
  '    msg_id = headers.get("webhook-id", "")',
  '    ts = headers.get("webhook-timestamp", "")',
  '    if not msg_id or not ts.isdigit() or abs(now - int(ts)) > TOLERANCE_SECONDS:',
  '        raise ValueError("webhook-timestamp is missing or more than 5 minutes off")',
  '    key = base64.b64decode(WEBHOOK_SECRET[len("whsec_"):])',
  '    mac = hmac.new(key, f"{msg_id}.{ts}.".encode() + body, hashlib.sha256).digest()',
  '    expected = base64.b64encode(mac).decode()',
  '    signatures = headers.get("webhook-signature", "").split(" ")',
  '    if not any(s.startswith("v1,") and _same(s[3:], expected) for s in signatures):',
  '        raise ValueError("webhook-signature does not match")',
  '    if headers.get("x-webhook-id") != WEBHOOK_ID:',
  '        raise ValueError("X-Webhook-Id is not this registration")',
  '    wts = headers.get("x-webhook-ts", "")',
  '    if not wts.isdigit() or abs(now * 1000 - int(wts)) > TOLERANCE_SECONDS * 1000:',
  '        raise ValueError("X-Webhook-Ts is missing or more than 5 minutes off")',
  '    service = hmac.new(WEBHOOK_ID.encode(), f"{wts}.".encode() + body, hashlib.sha256).hexdigest()',
  '    if not _same(headers.get("x-service-signature", ""), service):',
  '        raise ValueError("X-Service-Signature does not match")',
  '    return json.loads(body)',
];

const FENCE = '```';
const fenced = (language: string, lines: string[]) => md(FENCE + language, ...lines, FENCE);

// Behind these words: the catalogue is lib/webhooks/catalogue.ts (every record status is a
// `payment.<status>` type, so the ramps' statuses added types, not code). A registration's one active
// URL is held by an item keyed by the URL's hash, written and deleted in the registration's own
// transactions. An attempt that delivers is kept on the delivery, in its one conditional update; every
// other attempt is an item of its own, written in one transaction with that update (which also writes out
// an attempt kept before a redelivery and drops the attempt 20 before), so no item grows with attempts.
// The tenant share (lib/webhooks/tenant-share.ts, `tenantShare` in lib/queues.ts) is one item per tenant
// and lane holding its holders: an attempt takes a slot with one conditional write (fewer holders than
// the share), each holder's lease 15 s (the deliverer's timeout, which no invocation outlives), and a
// holder whose lease ran out is dropped by the write that finds the share full; the attempt gives it back
// with one more write when done; the slot is taken before anything else is read; a deferred attempt
// counts its `deferrals` in the message. Each instance remembers for a second that a tenant was full, so
// a backlog costs a send per message, not a write too; that memory is a hint for the delay only, the
// share's item is the bound. It needs no queue feature: SQS fair queues (message groups on a standard
// queue) reorder a shared backlog but bound nothing one tenant's slow attempts hold, and the local
// stack's fauxqs has no fair queues.
export const webhookTagDescription = md(
  '**Verify every delivery before acting on it.** Store the registration’s `id` and `secret` from the `POST /webhooks` answer (the secret is shown only there), and check both against what you stored, never against a delivery’s own headers:',
  '1. the Standard Webhooks signature, `webhook-signature: v1,<base64 HMAC-SHA256>` keyed on the secret over `<webhook-id>.<webhook-timestamp>.<body>`, with `webhook-timestamp` (Unix seconds) within 5 minutes: the one that proves the gateway sent it (the maintained `standardwebhooks` libraries verify it);',
  '2. `X-Service-Signature` (the contract’s), hex HMAC-SHA256 over `<X-Webhook-Ts>.<body>` keyed on **the webhook id you stored**: `X-Webhook-Id` must equal it, and `X-Webhook-Ts` (Unix ms) be within 5 minutes. Never key it on the `X-Webhook-Id` header: that key travels beside the signature, so anyone can send a made-up id with a signature made from it; keyed on the header, it only detects a corrupted body.',
  '',
  'Answer 400 when a check fails, 2xx within 10 s otherwise, and dedupe on the event’s `id`. In Node (no dependency; the `standardwebhooks` package checks step 1 as well), with the raw body as received:',
  '',
  fenced('js', NODE_VERIFICATION),
  '',
  'In Python (standard library; the `standardwebhooks` package checks step 1 as well), with the raw body bytes and lower-case header names:',
  '',
  fenced('python', PYTHON_VERIFICATION),
  '',
  '**Events.**',
  '- Envelope (`Content-Type: application/json`): `{id, type, createdAt, source, data, metaData}`. `id` names the change (the item and the state it reached), so it is the same at every attempt and every redelivery: dedupe on it. `source`: `payments`, `wallets`, `payment-destinations`, `customers`. `data` is the resource as the API returns it (a transaction record as `GET /transactions/{transactionId}`; a wallet as `GET /wallets/{walletId}` with `balances` null; a payment destination as its route; a customer registration as its GET). `metaData`: `{environment}`, and on a provider on-ramp record’s events `data: {netAmount, totalFees, feeCurrency, assetCode, reference}`. `createdAt` is when the change was written.',
  '- Catalogue: `payment.initiated` (a submission accepted: its record created), `payment.processing` (a ramp with its provider), `payment.completed`, `payment.failed`, `payment.refund_completed` (every status a record reaches is `payment.<status>`); `wallet.verified`, `wallet.rejected` (a KYC review’s end); `payment_destination.approved`, `payment_destination.rejected` (a verification decision); `Customer_Verified`, `Customer_Rejected` (a provider’s decision on a customer’s review). A provider on-ramp receipt is reported by its `provider_onramp` record’s `payment.*` events, with the payout summary in `metaData.data`. `webhook.test` is sent only when asked for (`POST /webhooks/{webhookId}/test`), to that webhook whatever its events, with `source` `webhooks` and `data` `{webhookId, message}`: no registration subscribes to it.',
  '- Events are sent from the changes themselves: an event exists if and only if the change it reports was written. Each event is fanned out to every active registration of its association subscribed to its type, one delivery per registration (its id names the registration and the event, so an event seen twice adds none). A resource’s deliveries, whichever webhook they went to: `GET /webhooks/deliveries?resourceId=`.',
  '',
  '**Deliveries.**',
  '- A `POST` of the envelope with `X-Webhook-Id` (the registration id), `X-Webhook-Ts` (delivery time, Unix ms), `X-Service-Signature`, and the Standard Webhooks headers `webhook-id` (the event id), `webhook-timestamp` (Unix seconds), `webhook-signature`.',
  '- A 2xx within **10 s** is delivered. Anything else, a timeout or a refused connection is retried after 5 s, 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 20 h (±20 % jitter; 11 attempts over about 72 hours). After the last attempt the delivery is `failed` (it can be redelivered), and the operators are alerted. Ordering is not guaranteed: use `createdAt` and the resource’s `updatedAt`. Redirects are not followed.',
  '- A slow or dead receiver never delays another registration’s deliveries: each attempt is one invocation, and an attempt unanswered after 2 s marks its registration slow for 5 minutes, during which its attempts run in a lane of their own (`webhook-slow-deliveries`); a prompt answer there ends the mark. The attempt that found it slow gives its tenant’s slot (below) back at the mark while it waits out its 10 s, so a dead receiver does not hold the tenant’s other registrations back either.',
  '- Fair per tenant: each attempt first takes one of its tenant’s slots in its lane (5 of the main lane’s 20 invocations, 2 of the slow lane’s 5), held for at most 15 s (a lease, so a worker that dies frees it); an attempt whose tenant holds all its slots goes back on the queue with a delay (1–2 s while the tenant has been full for under a second, 10–30 s once it has been full for longer), so one tenant’s many receivers just under the slow mark cannot hold every invocation, and a quiet tenant’s deliveries are not stuck behind another’s backlog.',
  '- Of a receiver’s answer only the first 256 characters are kept, and of an attempt that got no HTTP answer only a category (see the deliveries route); the operator’s log keeps the error’s words.',
);
