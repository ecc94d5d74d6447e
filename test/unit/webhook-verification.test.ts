// The webhook verification code of the OpenAPI document's Webhooks tag (Node and Python), run as a receiver would run them on
// deliveries the gateway's own signing code makes (lib/webhooks/signing.ts): a genuine one is accepted;
// one naming another registration's id, a forgery keyed on a made-up X-Webhook-Id, a tampered body and
// timestamps more than 5 minutes off on either signature are refused, each for its reason.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { deliveryHeaders, newWebhookSecret, serviceSignature } from '../../lib/webhooks/signing.ts';
import { openApiDocument } from '../../openapi/document.ts';
import { assertTool, skipWithout } from '../support/tools.ts';

const hasPython = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

/** The one fenced block of `language` in the Webhooks tag's description, as the API reference shows it. */
function snippet(language: 'js' | 'python'): string {
  const tags = openApiDocument().tags as { name: string; description: string }[];
  const section = tags.find((tag) => tag.name === 'Webhooks')?.description;
  assert.ok(section, 'the document has a Webhooks tag with a description');
  const blocks = [...section.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))];
  assert.equal(blocks.length, 1, `one ${language} block in the Webhooks tag`);
  return blocks[0]?.[1] as string;
}

interface Delivery {
  body: string;
  headers: Record<string, string>;
}
type Verdict = { event: { id: string } } | { error: string };

const webhookId = randomUUID();
const secret = newWebhookSecret();
const eventId = randomUUID();
const body = JSON.stringify({ id: eventId, type: 'payment.completed', source: 'payments', data: {} });
const SIX_MINUTES = 6 * 60_000;

/** Named deliveries, and the verdict each must get. */
function deliveries(): { name: string; delivery: Delivery; expected: string }[] {
  const now = new Date();
  const signed = (input: Partial<Parameters<typeof deliveryHeaders>[0]>) =>
    deliveryHeaders({ webhookId, eventId, secret, body, now, ...input });
  const madeUp = randomUUID();
  const staleMs = now.getTime() - SIX_MINUTES;
  return [
    { name: 'genuine', delivery: { body, headers: signed({}) }, expected: 'accepted' },
    {
      // Signed right in every other way (the secret too): only the id is not the one stored.
      name: "another registration's id",
      delivery: { body, headers: signed({ webhookId: madeUp }) },
      expected: 'X-Webhook-Id is not this registration',
    },
    {
      // What anyone can make: X-Service-Signature keyed on the id it sends beside it.
      name: 'forged with a made-up id',
      delivery: { body, headers: signed({ webhookId: madeUp, secret: newWebhookSecret() }) },
      expected: 'webhook-signature does not match',
    },
    {
      name: 'tampered body',
      delivery: { body: body.replace('payments', 'wallets'), headers: signed({}) },
      expected: 'webhook-signature does not match',
    },
    {
      name: 'webhook-timestamp 6 minutes old',
      delivery: { body, headers: signed({ now: new Date(staleMs) }) },
      expected: 'webhook-timestamp is missing or more than 5 minutes off',
    },
    {
      name: 'X-Webhook-Ts 6 minutes old',
      delivery: {
        body,
        headers: {
          ...signed({}),
          'x-webhook-ts': String(staleMs),
          'x-service-signature': serviceSignature(webhookId, staleMs, body),
        },
      },
      expected: 'X-Webhook-Ts is missing or more than 5 minutes off',
    },
  ];
}

/** Runs `program` with the registration in its environment and the deliveries on stdin; its verdicts. */
function verdicts(command: string, args: string[], input: Delivery[]): Promise<Verdict[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, WEBHOOK_ID: webhookId, WEBHOOK_SECRET: secret } },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
    child.stdin?.end(JSON.stringify(input));
  });
}

async function assertVerdicts(command: string, args: string[]) {
  const cases = deliveries();
  const answers = await verdicts(
    command,
    args,
    cases.map((c) => c.delivery),
  );
  const named = answers.map((answer, i) => [cases[i]?.name, 'error' in answer ? answer.error : 'accepted']);
  assert.deepEqual(
    named,
    cases.map((c) => [c.name, c.expected]),
  );
  assert.deepEqual(answers[0], { event: JSON.parse(body) });
}

describe("the Webhooks tag's verification code", () => {
  it('Node: accepts a genuine delivery and refuses forged, tampered and stale ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-node-'));
    writeFileSync(join(dir, 'verify.mjs'), snippet('js'));
    writeFileSync(
      join(dir, 'run.mjs'),
      `import { text } from 'node:stream/consumers';
import { verifyDelivery } from './verify.mjs';
const answers = JSON.parse(await text(process.stdin)).map(({ body, headers }) => {
  try { return { event: verifyDelivery(body, headers) }; } catch (error) { return { error: error.message }; }
});
console.log(JSON.stringify(answers));`,
    );
    await assertVerdicts(process.execPath, [join(dir, 'run.mjs')]);
  });

  // Skipped only where python3 is not installed, and never under CI.
  it.skipIf(skipWithout(hasPython))('Python: the same verdicts', async () => {
    assertTool('python3', hasPython);
    const dir = mkdtempSync(join(tmpdir(), 'verify-python-'));
    writeFileSync(join(dir, 'verify.py'), snippet('python'));
    writeFileSync(
      join(dir, 'run.py'),
      `import json, sys
from verify import verify_delivery
answers = []
for delivery in json.load(sys.stdin):
    try:
        answers.append({"event": verify_delivery(delivery["body"].encode(), delivery["headers"])})
    except ValueError as error:
        answers.append({"error": str(error)})
print(json.dumps(answers))`,
    );
    await assertVerdicts('python3', [join(dir, 'run.py')]);
  });
});
