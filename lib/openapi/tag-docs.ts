// Descriptions of the document's tags (Markdown), where a group of routes needs more than its routes'
// own: what a receiver of webhooks must do with every delivery.

export const tagDescriptions: Partial<Record<string, string>> = {
  Webhooks: `**Verify every delivery before acting on it**, against the registration's \`id\` and \`secret\` you stored from the \`POST /webhooks\` answer, never against the delivery's own headers: (1) the Standard Webhooks signature, \`webhook-signature: v1,<base64 HMAC-SHA256>\` keyed on the secret over \`\${webhook-id}.\${webhook-timestamp}.\${body}\`, with \`webhook-timestamp\` (Unix seconds) within 5 minutes; it is the one that proves the gateway sent it; (2) \`X-Service-Signature\` (the contract's), hex HMAC-SHA256 over \`\${X-Webhook-Ts}.\${body}\` keyed on **the webhook id you stored**: \`X-Webhook-Id\` must equal it and \`X-Webhook-Ts\` (Unix ms) be within 5 minutes. Never key it on the \`X-Webhook-Id\` header: anyone can send a made-up id with a signature made from it. Answer 400 when a check fails, 2xx within 10 s otherwise, and dedupe on the event's \`id\`. The README (Webhooks) has runnable verification code for Node and Python.`,
};
