// Descriptions of the document's tags (Markdown): what a group of routes is for, and where it needs more
// than its routes' own words (what a receiver of webhooks must do with every delivery).

export const tagDescriptions: Record<string, string> = {
  Auth: 'Access tokens: `POST /auth/token` with the application’s key and client credentials answers a bearer token for 900 s. Fetch a new one before it expires; every other route needs it.',
  Assets: 'The assets of the registry (code, issuer, decimals) that wallets hold and payments send.',
  Wallets:
    'Custodial ledger wallets: own wallets (`ownAccount: true`) and third-party ones that carry the holder’s KYC details (`metadata`), their balances, and their activation on the ledger.',
  Beneficiaries: 'The people and businesses payments go to, with their KYC details.',
  'Payment destinations':
    'Where a beneficiary is paid: a bank account, a mobile-money number or a crypto address, each verified before an off-ramp may use it.',
  Connectors:
    'The providers’ corridors (country, direction, currencies, limits) and what a payment through one requires.',
  Quotes: 'Priced offers for an off-ramp or an on-ramp through a connector, good until `expiresAt`.',
  Payments:
    'P2P, swaps, atomic multi-transfers, off-ramps and on-ramps. Each is identified by your `transactionId` (a UUID): sending the same one again is safe and answers the first request’s record (`isIdempotent: true`). A 202 is acceptance, not settlement: read the transaction until its `status` leaves `initiated`, or listen to its webhooks.',
  Transactions: 'The records payments leave, read one at a time or listed with filters.',
  Customers:
    'Your customers registered with a BESPOKE connector’s provider (individual or business): the provider reviews each registration and its decision arrives as `Customer_Verified` or `Customer_Rejected`.',
  'On-ramp references':
    'References a verified customer pays into at a BESPOKE on-ramp provider, each bound to one of your own Verified wallets: what the customer pays against a reference is paid, net of fees, into that wallet on the ledger.',
  Statements:
    'A wallet’s settled ledger lines per asset, with running balances and stable row ids, as JSON or CSV.',
  Providers:
    'Signed notifications from the off-ramp and on-ramp providers, authenticated by the provider’s signature rather than an API key.',
  Sandbox:
    'Test helpers for sandbox applications only (a production application gets 404): fund a wallet, decide a KYC or a verification, complete or fail a provider’s payment.',
  Webhooks: `**Verify every delivery before acting on it**, against the registration's \`id\` and \`secret\` you stored from the \`POST /webhooks\` answer, never against the delivery's own headers: (1) the Standard Webhooks signature, \`webhook-signature: v1,<base64 HMAC-SHA256>\` keyed on the secret over \`\${webhook-id}.\${webhook-timestamp}.\${body}\`, with \`webhook-timestamp\` (Unix seconds) within 5 minutes; it is the one that proves the gateway sent it; (2) \`X-Service-Signature\` (the contract's), hex HMAC-SHA256 over \`\${X-Webhook-Ts}.\${body}\` keyed on **the webhook id you stored**: \`X-Webhook-Id\` must equal it and \`X-Webhook-Ts\` (Unix ms) be within 5 minutes. Never key it on the \`X-Webhook-Id\` header: anyone can send a made-up id with a signature made from it. Answer 400 when a check fails, 2xx within 10 s otherwise, and dedupe on the event's \`id\`. The API notes (docs/api.md, Webhooks) have runnable verification code for Node and Python.`,
};
