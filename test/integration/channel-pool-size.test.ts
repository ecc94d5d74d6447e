// A pool of hundreds of channel accounts (issue #24 §1): a lease reads a bounded number of items whatever
// the pool's size, and a release is one conditional write. Counted on the DynamoDB client itself (items
// each answer returned, requests that write), in a table of this file's own, with 200 channels.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { resetConfig } from '../../lib/config.ts';
import { useOwnTable } from '../../local/stack.ts';

type Channels = typeof import('../../lib/ledger/channels.ts');

const POOL = 200;
const LEASES = 100;
/** The document client's commands and the low-level ones they wrap, by name. */
const WRITE = /^(Put|Update|Delete|BatchWrite)(Item)?Command$/;

/** What the table was asked since the last `take()`: items read (returned by any read) and write requests. */
interface TableCost {
  itemsRead: number;
  writes: number;
}

/**
 * Each case is some hundreds of sequential table calls, counted, not timed: on a loaded machine DynamoDB
 * Local answers them several times slower (60 s and more), so the default test clock is no bound for them.
 */
const LOAD_PROOF_TIMEOUT_MS = 300_000;

describe('a channel pool of 200', () => {
  let channels: Channels;
  let cost: TableCost = { itemsRead: 0, writes: 0 };
  const take = (): TableCost => {
    const taken = cost;
    cost = { itemsRead: 0, writes: 0 };
    return taken;
  };
  const maxTime = () => Math.floor(Date.now() / 1000) + 600;

  beforeAll(async () => {
    await useOwnTable('test-channel-pool-size');
    process.env.LEDGER_CHANNELS = String(POOL);
    resetConfig();
    channels = await import('../../lib/ledger/channels.ts');
    await channels.ensureChannelKeys('sandbox', POOL);
    const { db } = await import('../../lib/db/client.ts');
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const output = result.output as {
          Item?: unknown;
          Items?: unknown[];
          Responses?: Record<string, unknown[]>;
        };
        cost.itemsRead +=
          (output.Item ? 1 : 0) +
          (output.Items?.length ?? 0) +
          Object.values(output.Responses ?? {}).reduce((sum, items) => sum + items.length, 0);
        if (WRITE.test(context.commandName ?? '')) cost.writes++;
        return result;
      },
      { step: 'initialize', name: 'countTableCost' },
    );
  });

  afterAll(() => {
    delete process.env.LEDGER_CHANNELS;
  });

  it(
    `leases ${LEASES} channels each reading at most ${16} items, and frees each with one write`,
    async () => {
      assert.equal(channels.LEASE_PROBES, 16);
      const held: { intentId: string; publicKey: string }[] = [];
      const leaseCosts: TableCost[] = [];
      take();
      for (let i = 0; i < LEASES; i++) {
        const intentId = `pool-size:${i}:${randomUUID()}`;
        const lease = await channels.leaseChannel('sandbox', intentId, maxTime());
        leaseCosts.push(take());
        held.push({
          intentId,
          publicKey: lease?.publicKey ?? assert.fail(`lease ${i} found no free channel`),
        });
      }
      assert.equal(new Set(held.map((h) => h.publicKey)).size, LEASES, 'each lease its own channel');
      const mostRead = Math.max(...leaseCosts.map((c) => c.itemsRead));
      assert.ok(mostRead <= channels.LEASE_PROBES, `a lease read ${mostRead} items of a pool of ${POOL}`);

      // A worker resuming an intent finds the channel it holds among what it reads: no second lease.
      const [first = assert.fail()] = held;
      assert.equal(
        (await channels.leaseChannel('sandbox', first.intentId, maxTime()))?.publicKey,
        first.publicKey,
      );
      take();

      for (const { intentId, publicKey } of held) {
        await channels.releaseChannels('sandbox', intentId, [publicKey]);
        const released = take();
        // The channel's number by its account: one item the first time, then known to the process.
        assert.ok(released.itemsRead <= 1, `a release read ${released.itemsRead} items`);
        assert.equal(released.writes, 1, 'one conditional write');
      }
      await assertAllFree();
    },
    LOAD_PROOF_TIMEOUT_MS,
  );

  it(
    'claims the channel this process freed last with one write and no read',
    async () => {
      const held: { intentId: string; publicKey: string }[] = [];
      for (let i = 0; i < LEASES; i++) {
        const intentId = `pool-affinity:${i}:${randomUUID()}`;
        const lease = await channels.leaseChannel('sandbox', intentId, maxTime());
        held.push({
          intentId,
          publicKey: lease?.publicKey ?? assert.fail(`lease ${i} found no free channel`),
        });
      }
      // Half the pool held: without affinity a lease would land on any of the 100 free channels.
      const rounds = 2 * channels.LEASE_SAMPLE_EVERY;
      let unread = 0;
      for (let round = 0; round < rounds; round++) {
        const holding = held[round] ?? assert.fail();
        await channels.releaseChannels('sandbox', holding.intentId, [holding.publicKey]);
        take();
        const intentId = `pool-affinity:again:${round}:${randomUUID()}`;
        const lease = await channels.leaseChannel('sandbox', intentId, maxTime());
        const cost = take();
        assert.equal(lease?.publicKey, holding.publicKey, `round ${round}: the channel just freed`);
        assert.equal(cost.writes, 1, `round ${round}: one conditional write`);
        if (cost.itemsRead === 0) unread++;
        held[round] = { intentId, publicKey: holding.publicKey };
      }
      // One lease in LEASE_SAMPLE_EVERY reads its probes all the same, for the pool's use metric.
      assert.equal(unread, rounds - rounds / channels.LEASE_SAMPLE_EVERY);
      for (const { intentId, publicKey } of held)
        await channels.releaseChannels('sandbox', intentId, [publicKey]);
      await assertAllFree();
    },
    LOAD_PROOF_TIMEOUT_MS,
  );

  async function assertAllFree(): Promise<void> {
    const pool = await channels.channelPool('sandbox');
    assert.equal(pool.length, POOL);
    assert.deepEqual(
      pool.filter((c) => c.holder !== undefined),
      [],
      'every channel free again',
    );
  }
});
