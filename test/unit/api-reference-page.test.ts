// What the API reference page (/docs) shows a newcomer first: a quick start (a token, a first wallet, a
// first payment), then the resources' operations; the rules every route follows are sections of their own
// after them. And it says what an integrator sees, never how the service is built.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { openApiDocument } from '../../openapi/document.ts';

const document = openApiDocument();
const RULES = ['Authentication', 'Errors', 'Requests', 'Rate limits', 'Retries', 'Pagination', 'Request ids'];

/** Libraries, services and settings of the implementation: none is the integrator's business. */
const INTERNALS = [
  'Powertools',
  'middy',
  'jose',
  'aws-jwt-verify',
  '__proto__',
  'SECRET_MAX_AGE_SECONDS',
  'KEY_FETCH_TIMEOUT_MS',
  'TOKEN_TTL_SECONDS',
  'ERRORS_BASE',
  'function_request_id',
  'cold_start',
  'submitOnce',
  'outbox',
  'the table',
  'SQS',
  'API Gateway',
  'DynamoDB',
  'Lambda',
];

describe('the API reference page', () => {
  it('opens with a quick start: a token, a first wallet, a first payment', () => {
    const intro = (document.info as { description: string }).description;
    const start = intro.indexOf('**Quick start**');
    assert.ok(start >= 0 && start < 400, 'the quick start comes first');
    const steps = ['POST /auth/token', 'POST /wallets', 'POST /payments/p2p/own'].map((call) =>
      intro.indexOf(call),
    );
    assert.ok(
      steps.every((at, i) => at > start && (i === 0 || at > (steps[i - 1] as number))),
      'token, wallet, payment, in order',
    );
    // Short: the first operation is on the first screen, the rules are elsewhere.
    assert.ok(intro.length < 2000, `${intro.length} characters before the first operation`);
    assert.doesNotMatch(intro, /\| status \| slug \|/, 'no error table at the top');
  });

  it('puts the rules every route follows in sections of their own, after every resource', () => {
    const tags = (document.tags as { name: string }[]).map((tag) => tag.name);
    const used = new Set(
      Object.values(document.paths).flatMap((item) =>
        Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? []),
      ),
    );
    assert.deepEqual(tags.slice(-RULES.length), RULES);
    for (const rule of RULES) assert.ok(!used.has(rule), `${rule} is a section, not an operation's tag`);
    assert.ok(
      tags.slice(0, -RULES.length).every((tag) => used.has(tag)),
      'resources first',
    );
  });

  it('names nothing of how the service is built', () => {
    const { 'x-unmatched-requests': _notShown, ...shown } = document as Record<string, unknown>;
    const text = JSON.stringify(shown);
    for (const name of INTERNALS) assert.ok(!text.includes(name), `the page names ${name}`);
  });
});
