// Payment acceptance, rule by rule (spec §4.7, issue #10 §1–3). Each refusal must answer problem+json
// naming exactly the members at fault and write nothing (the caller's GET /transactions is unchanged);
// each rule that lets a request through is shown with one that settles. Every refusal changes one member
// of a body the first test shows is accepted, so it can only be refused for that member. Ledger outcomes
// are payments.test.ts's; here only what acceptance decides, and the outcomes that are acceptance
// choices: a wallet still being opened, and an amount over what the wallet can spend (issue #21 §4).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { type ApiResponse, as, assertAnsweredAsMissing, type Caller, newCaller } from '../support/api.ts';
import { bankDestination, created, cryptoDestination, person } from '../support/fixtures.ts';
import { allowRecipient } from '../support/notice-recipients.ts';
import {
  accepted,
  balancesOf,
  horizon,
  listed,
  type OwnWallet,
  outsiderAccount,
  ownWallet,
  recordWhen,
  settled,
  submit,
} from '../support/payments.ts';

type Body = Record<string, unknown>;

const ROUTES = ['p2p/own', 'swap/own', 'p2p/own/multi', 'p2p/beneficiary', 'swap/beneficiary'] as const;
type PaymentRoute = (typeof ROUTES)[number];
const OWN_ROUTES = ['p2p/own', 'swap/own', 'p2p/own/multi'] as const;
const BENEFICIARY_ROUTES = ['p2p/beneficiary', 'swap/beneficiary'] as const;
/** The routes whose body has `amount` (the multi-transfer's legs have theirs). */
const SINGLE_ROUTES = ['p2p/own', 'swap/own', 'p2p/beneficiary', 'swap/beneficiary'] as const;

const leg = (walletId: string, destinationWalletId: string, amount: number, sendingAssetCode = 'USDC') => ({
  walletId,
  destinationWalletId,
  sendingAssetCode,
  amount,
});

const without = (body: Body, member: string): Body => {
  const { [member]: _, ...rest } = body;
  return rest;
};

/** The caller's record ids: what a refusal must leave as it was. */
const recordIds = async (caller: Caller): Promise<string[]> =>
  (await listed(caller)).map((record) => record.transactionRecordId);

/**
 * Submits a payment that must be refused with `status`, naming exactly `fields` (in any order), and
 * must leave the caller's records as they were.
 */
async function refused(
  caller: Caller,
  route: string,
  body: Body,
  status: number,
  fields: string[],
  message?: RegExp,
): Promise<ApiResponse> {
  const before = await recordIds(caller);
  const answer = await submit(caller, route, body);
  // A 41-transfer body would drown the message: its start tells which case it is.
  const what = `${route} ${JSON.stringify(body).slice(0, 400)} → ${answer.status} ${JSON.stringify(answer.body)}`;
  assert.equal(answer.status, status, what);
  assert.equal(answer.headers.get('content-type'), 'application/problem+json', what);
  const named = (answer.body.errors ?? []).map((e: { field: string }) => e.field);
  assert.deepEqual(named.sort(), [...fields].sort(), what);
  if (message)
    assert.ok(
      answer.body.errors.some((e: { message: string }) => message.test(e.message)),
      what,
    );
  if (status === 422) assert.match(answer.body.type, /\/validation-error$/);
  assert.deepEqual(await recordIds(caller), before, `${what}: a refused payment wrote a record`);
  return answer;
}

/** Waits for every record to settle, and asserts each completed. */
async function completed(caller: Caller, ids: string[]) {
  // biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
  const records: any[] = await Promise.all(ids.map((id) => settled(caller, id)));
  for (const record of records) assert.equal(record.status, 'completed', JSON.stringify(record));
  return records;
}

describe('payment acceptance', () => {
  let alice: Caller;
  let a: OwnWallet;
  let b: OwnWallet;
  /** A third-party wallet: Pending until its KYC review is decided. */
  let pending: string;
  /** A wallet of another tenant. */
  let bobs: string;
  /** A beneficiary with an email and a mobile, and its destinations. */
  let lerato: string;
  let usdcDestination: string;
  let eurcDestination: string;
  let bank: string;
  /** A beneficiary without contact details, and its USDC destination. */
  let sipho: string;
  let siphoDestination: string;

  /** A body `route` accepts from alice, with a new transactionId. */
  function valid(route: PaymentRoute): Body {
    const transactionId = randomUUID();
    const own = {
      transactionId,
      walletId: a.id,
      destinationWalletId: b.id,
      sendingAssetCode: 'USDC',
      amount: 1,
    };
    const toLerato = {
      transactionId,
      walletId: a.id,
      beneficiaryId: lerato,
      paymentDestinationId: usdcDestination,
      sendingAssetCode: 'USDC',
      amount: 1,
    };
    switch (route) {
      case 'p2p/own':
        return own;
      case 'swap/own':
        return { ...own, receivingAssetCode: 'EURC' };
      case 'p2p/own/multi':
        return { transactionId, transfers: [leg(a.id, b.id, 1), leg(b.id, a.id, 0.5)] };
      case 'p2p/beneficiary':
        return toLerato;
      case 'swap/beneficiary':
        return { ...toLerato, paymentDestinationId: eurcDestination, receivingAssetCode: 'EURC' };
    }
  }

  /** `route`'s valid body with `changes`: refused as `refused` checks. */
  const refusedWith = (
    route: PaymentRoute,
    changes: Body,
    status: number,
    fields: string[],
    message?: RegExp,
  ) => refused(alice, route, { ...valid(route), ...changes }, status, fields, message);

  /** `route`'s valid body with `changes`, which must be accepted: its record id. */
  const acceptedWith = (route: PaymentRoute, changes: Body) =>
    accepted(alice, route, { ...valid(route), ...changes });

  /** A multi-transfer whose second transfer is `second` (the first is a valid one). */
  const secondTransfer = (second: unknown) => ({ transfers: [leg(a.id, b.id, 1), second] });

  beforeAll(async () => {
    let bob: Caller;
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
    const post = (caller: Caller, path: string, body: unknown) => as(caller, path, { method: 'POST', body });
    const [outsider, leratoId, siphoId] = await Promise.all([
      outsiderAccount(alice, ['USDC', 'EURC']),
      created(
        post(alice, '/beneficiaries', {
          individual: {
            firstName: 'Lerato',
            lastName: 'Dlamini',
            email: 'lerato@example.com',
            mobile: '+27821234567',
          },
        }),
      ),
      created(post(alice, '/beneficiaries', { individual: { firstName: 'Sipho', lastName: 'Mokoena' } })),
    ]);
    lerato = leratoId;
    sipho = siphoId;
    // A sandbox notice goes only to a verified recipient (issue 36): the admin CLI's allow-list.
    await allowRecipient(alice, 'whatsapp', '+27821234567');
    const destinations = (id: string) => `/beneficiaries/${id}/payment-destinations`;
    [a, b, pending, bobs, usdcDestination, eurcDestination, bank, siphoDestination] = await Promise.all([
      ownWallet(alice, 'USDC', 1000),
      ownWallet(alice, 'USDC'),
      created(post(alice, '/wallets', { walletName: 'Thandi', assetCode: 'USDC', metadata: person })),
      created(post(bob, '/wallets', { walletName: 'Bob', assetCode: 'USDC', ownAccount: true })),
      created(post(alice, destinations(lerato), cryptoDestination('USDC', outsider.publicKey()))),
      created(post(alice, destinations(lerato), cryptoDestination('EURC', outsider.publicKey()))),
      created(post(alice, destinations(lerato), bankDestination)),
      created(post(alice, destinations(sipho), cryptoDestination('USDC', outsider.publicKey()))),
    ]);
  });

  it('accepts the valid body of every route, and each settles', async () => {
    const ids: string[] = [];
    for (const route of ROUTES) ids.push(await accepted(alice, route, valid(route)));
    await completed(alice, ids);
  });

  describe('request shapes (400)', () => {
    it('requires transactionId, a UUID, on every route', async () => {
      for (const route of ROUTES) {
        await refused(alice, route, without(valid(route), 'transactionId'), 400, ['transactionId']);
        await refusedWith(route, { transactionId: 'not-a-uuid' }, 400, ['transactionId']);
        await refusedWith(route, { transactionId: 42 }, 400, ['transactionId']);
      }
    });

    it('refuses idempotencyKey, externalReference and every pricing member by name', async () => {
      // transactionId is the only identity, and pricing is never taken from the caller.
      const members: Body = {
        idempotencyKey: randomUUID(),
        externalReference: 'INV-2041',
        fee: 0,
        rate: 1,
        exchangeRate: 1,
        receiveAmount: 1,
        destMin: 0.9,
      };
      for (const route of ROUTES)
        for (const [member, value] of Object.entries(members))
          await refusedWith(route, { [member]: value }, 400, [member]);
    });

    it('refuses an amount that is not a number above 0 with at most 7 decimals', async () => {
      const amounts = ['10', 0, -1, 0.00000001];
      for (const amount of amounts) {
        for (const route of SINGLE_ROUTES) await refusedWith(route, { amount }, 400, ['amount']);
        const second = { ...leg(b.id, a.id, 1), amount };
        await refusedWith('p2p/own/multi', secondTransfer(second), 400, ['transfers.1.amount']);
      }
      // Seven decimals are what the ledger holds: the smallest amount it can move is accepted.
      const [record] = await completed(alice, [await acceptedWith('p2p/own', { amount: 0.0000001 })]);
      assert.equal(record.sendAmount, 0.0000001);
    });

    it('refuses a fromRef or toRef outside ^[A-Za-z0-9-]{1,16}$, naming it, on every route', async () => {
      for (const route of ROUTES)
        for (const field of ['fromRef', 'toRef'])
          for (const ref of ['', 'A'.repeat(17), 'a b', 'é'])
            await refusedWith(route, { [field]: ref }, 400, [field]);
    });

    it('takes a null or omitted reference as none, and records a valid one unaltered', async () => {
      const cases: [PaymentRoute, Body, { fromRef: string | null; toRef: string | null }][] = [
        ['p2p/own', { fromRef: null }, { fromRef: null, toRef: null }],
        [
          'p2p/own',
          { fromRef: 'inv-0042-AB', toRef: 'Z'.repeat(16) },
          { fromRef: 'inv-0042-AB', toRef: 'Z'.repeat(16) },
        ],
        ['p2p/beneficiary', { fromRef: 'a', toRef: null }, { fromRef: 'a', toRef: null }],
        ['p2p/own/multi', { toRef: '-Batch-7-' }, { fromRef: null, toRef: '-Batch-7-' }],
      ];
      const ids: string[] = [];
      for (const [route, refs, expected] of cases) {
        const id = await acceptedWith(route, refs);
        // The record is readable the moment the 202 arrives.
        const { body } = await as(alice, `/transactions/${id}`);
        assert.deepEqual({ fromRef: body.fromRef, toRef: body.toRef }, expected, route);
        ids.push(id);
      }
      await completed(alice, ids);
    });

    it('takes a memo of at most 28 bytes of UTF-8, on the own single routes only', async () => {
      const memo28 = 'é'.repeat(14);
      for (const route of ['p2p/own', 'swap/own'] as const) {
        await refusedWith(route, { memo: `${memo28}a` }, 400, ['memo']);
        await refusedWith(route, { memo: '' }, 400, ['memo']);
      }
      // Not a member of the beneficiary routes or the multi-transfer.
      for (const route of ['p2p/own/multi', ...BENEFICIARY_ROUTES] as const)
        await refusedWith(route, { memo: 'rent' }, 400, ['memo']);

      const [record] = await completed(alice, [await acceptedWith('p2p/own', { memo: memo28 })]);
      assert.equal(record.memo, memo28);
      const onLedger = await horizon().transactions().transaction(record.stellarTxHash).call();
      assert.equal(onLedger.memo, memo28);
    });

    it('refuses beneficiary members on the own routes, and destinationWalletId on the beneficiary routes', async () => {
      const beneficiaryMembers: Body = {
        beneficiaryId: lerato,
        paymentDestinationId: usdcDestination,
        notifyEmail: true,
        notifyWhatsApp: false,
      };
      for (const route of OWN_ROUTES)
        for (const [member, value] of Object.entries(beneficiaryMembers))
          await refusedWith(route, { [member]: value }, 400, [member]);
      for (const route of BENEFICIARY_ROUTES)
        await refusedWith(route, { destinationWalletId: b.id }, 400, ['destinationWalletId']);
    });
  });

  describe('replays', () => {
    it('takes ids in upper case and default flags sent explicitly as the same request', async () => {
      const upper = (id: unknown) => String(id).toUpperCase();
      const own = valid('p2p/own');
      const ownId = await acceptedWith('p2p/own', own);
      const toLerato = valid('p2p/beneficiary');
      const beneficiaryId = await acceptedWith('p2p/beneficiary', toLerato);
      const multi = valid('p2p/own/multi');
      const multiId = await acceptedWith('p2p/own/multi', multi);
      const replays: [PaymentRoute, Body, string][] = [
        [
          'p2p/own',
          { ...own, walletId: upper(own.walletId), transactionId: upper(own.transactionId) },
          ownId,
        ],
        ['p2p/own', { ...own, destinationWalletId: upper(own.destinationWalletId), fromRef: null }, ownId],
        [
          'p2p/beneficiary',
          {
            ...toLerato,
            beneficiaryId: upper(toLerato.beneficiaryId),
            paymentDestinationId: upper(toLerato.paymentDestinationId),
          },
          beneficiaryId,
        ],
        ['p2p/beneficiary', { ...toLerato, notifyEmail: false, notifyWhatsApp: false }, beneficiaryId],
        [
          'p2p/own/multi',
          {
            ...multi,
            transfers: [leg(upper(a.id), b.id, 1), leg(b.id, upper(a.id), 0.5)],
            toRef: null,
          },
          multiId,
        ],
      ];
      for (const [route, body, id] of replays) {
        const replay = await submit(alice, route, body);
        assert.equal(replay.status, 202, `${route} ${JSON.stringify(body)}: ${JSON.stringify(replay.body)}`);
        assert.equal(replay.body.isIdempotent, true);
        assert.equal(replay.body.transactionRecordId, id);
      }
      // Explicit flags that ask for something else are another request.
      await refused(alice, 'p2p/beneficiary', { ...toLerato, notifyEmail: true }, 409, ['transactionId']);
      await completed(alice, [ownId, beneficiaryId, multiId]);
    });
  });

  describe('beneficiaries and their destinations', () => {
    it('answers 404 for another beneficiary’s destination, or an unknown one, naming paymentDestinationId', async () => {
      for (const route of BENEFICIARY_ROUTES) {
        for (const paymentDestinationId of [siphoDestination, randomUUID()])
          await refusedWith(route, { paymentDestinationId }, 404, ['paymentDestinationId']);
      }
    });

    it('answers 404 for an unknown beneficiary, naming beneficiaryId', async () => {
      for (const route of BENEFICIARY_ROUTES)
        await refusedWith(route, { beneficiaryId: randomUUID() }, 404, ['beneficiaryId']);
    });

    it('refuses a BANK destination with 422: fiat destinations are paid by off-ramp', async () => {
      for (const route of BENEFICIARY_ROUTES)
        await refusedWith(route, { paymentDestinationId: bank }, 422, ['paymentDestinationId'], /offramp/);
    });

    it('refuses with 422 an asset other than the one the destination receives', async () => {
      await refusedWith('p2p/beneficiary', { sendingAssetCode: 'EURC' }, 422, ['sendingAssetCode']);
      // A swap's destination receives what it converts into.
      await refusedWith('swap/beneficiary', { receivingAssetCode: 'XLM' }, 422, ['receivingAssetCode']);
    });

    it('notifies one way, and only where the beneficiary has that contact', async () => {
      for (const route of BENEFICIARY_ROUTES)
        await refusedWith(route, { notifyEmail: true, notifyWhatsApp: true }, 422, [
          'notifyEmail',
          'notifyWhatsApp',
        ]);
      const toSipho = { beneficiaryId: sipho, paymentDestinationId: siphoDestination };
      await refusedWith('p2p/beneficiary', { ...toSipho, notifyEmail: true }, 422, ['notifyEmail']);
      await refusedWith('p2p/beneficiary', { ...toSipho, notifyWhatsApp: true }, 422, ['notifyWhatsApp']);
      // Lerato has a mobile: the same flag is taken for her, and the record says where the notice went.
      const id = await acceptedWith('p2p/beneficiary', { notifyWhatsApp: true });
      await completed(alice, [id]);
      const record = await recordWhen(alice, id, (r) => r.notification.status !== 'pending');
      assert.equal(record.notification.channel, 'whatsapp');
      assert.equal(record.notification.status, 'sent', JSON.stringify(record.notification));
      assert.ok(record.notification.sentAt);
    });
  });

  describe('wallets', () => {
    it('answers 404 for a wallet that is not the caller’s, naming the member', async () => {
      await refusedWith('p2p/own', { walletId: randomUUID() }, 404, ['walletId']);
      await refusedWith('p2p/own', { destinationWalletId: randomUUID() }, 404, ['destinationWalletId']);
      await refusedWith('p2p/beneficiary', { walletId: randomUUID() }, 404, ['walletId']);
    });

    it('answers another tenant’s wallet exactly as an unknown one', async () => {
      const unknown = randomUUID();
      const theirs = await refusedWith('p2p/own', { walletId: bobs }, 404, ['walletId']);
      const missing = await refusedWith('p2p/own', { walletId: unknown }, 404, ['walletId']);
      assertAnsweredAsMissing(theirs, bobs, missing, unknown);
    });

    it('answers 403 for a wallet that is not Verified, naming the member', async () => {
      await refusedWith('p2p/own', { walletId: pending }, 403, ['walletId']);
      await refusedWith('p2p/own', { destinationWalletId: pending }, 403, ['destinationWalletId']);
      await refusedWith('swap/beneficiary', { walletId: pending }, 403, ['walletId']);
    });

    it('refuses a P2P from a wallet to itself with 422 (a swap may convert within one wallet)', async () => {
      await refusedWith('p2p/own', { destinationWalletId: a.id }, 422, ['destinationWalletId']);
    });

    it('accepts a wallet whose ledger account is still being opened: the payment completes once it is', async () => {
      const fresh = await as(alice, '/wallets', {
        method: 'POST',
        body: { walletName: 'Fresh', assetCode: 'USDC', ownAccount: true },
      });
      assert.equal(fresh.status, 201, JSON.stringify(fresh.body));
      assert.equal(fresh.body.activationStatus, 'pending');
      const id = await acceptedWith('p2p/own', { destinationWalletId: fresh.body.id, amount: 3 });
      await completed(alice, [id]);
      assert.equal((await balancesOf(fresh.body.publicKey)).USDC, '3.0000000');
    });

    it('refuses with 422 on amount a payment over what the wallet can spend, on every route, writing nothing', async () => {
      const poor = await ownWallet(alice, 'USDC', 5);
      const before = { poor: await balancesOf(poor.publicKey), b: await balancesOf(b.publicKey) };
      const over = /5\.0000001 USDC is more than wallet .* can spend 5\.0000000 USDC/;
      for (const route of SINGLE_ROUTES)
        await refusedWith(route, { walletId: poor.id, amount: 5.0000001 }, 422, ['amount'], over);
      // A multi-transfer adds up each wallet's transfers in order, and names the one that overdraws it;
      // what an earlier transfer paid into a wallet, it may spend (one transaction: all land or none).
      const transfers = [leg(poor.id, b.id, 3), leg(a.id, b.id, 1), leg(poor.id, a.id, 2.0000001)];
      await refusedWith('p2p/own/multi', { transfers }, 422, ['transfers.2.amount'], over);
      const topped = [leg(a.id, poor.id, 1), leg(poor.id, b.id, 6.0000001)];
      await refusedWith(
        'p2p/own/multi',
        { transfers: topped },
        422,
        ['transfers.1.amount'],
        /6\.0000001 USDC is more than wallet .* can spend 5\.0000000 USDC/,
      );
      assert.deepEqual(await balancesOf(poor.publicKey), before.poor);
      assert.deepEqual(await balancesOf(b.publicKey), before.b);
      // All it can spend is accepted, and the ledger agrees; so is what a transfer before paid into it.
      const paidIn = [leg(a.id, poor.id, 0.5), leg(poor.id, b.id, 5.5)];
      await completed(alice, [await acceptedWith('p2p/own/multi', { transfers: paidIn })]);
      assert.equal((await balancesOf(poor.publicKey)).USDC, '0.0000000');
    });

    it('refuses XLM the wallet shows but cannot spend: its reserve', async () => {
      const lumens = await ownWallet(alice, 'XLM', 2);
      // 3 XLM on the ledger: 1 of it is the account's reserve (no trustline for XLM), 2 are spendable.
      assert.equal((await balancesOf(lumens.publicKey)).XLM, '3.0000000');
      const xlm = { walletId: lumens.id, sendingAssetCode: 'XLM' };
      await refusedWith('p2p/own', { ...xlm, amount: 2.1 }, 422, ['amount'], /can spend 2\.0000000 XLM/);
      await completed(alice, [await acceptedWith('p2p/own', { ...xlm, amount: 2 })]);
      await refusedWith('p2p/own', { ...xlm, amount: 0.1 }, 422, ['amount'], /less the ledger’s reserve/);
      assert.equal((await balancesOf(lumens.publicKey)).XLM, '1.0000000');
    });
  });

  describe('swaps', () => {
    it('requires receivingAssetCode on the swap routes', async () => {
      for (const route of ['swap/own', 'swap/beneficiary'] as const)
        await refused(alice, route, without(valid(route), 'receivingAssetCode'), 400, ['receivingAssetCode']);
    });

    it('refuses with 422 a receivingAssetCode that is the sendingAssetCode', async () => {
      await refusedWith('swap/own', { receivingAssetCode: 'usdc' }, 422, ['receivingAssetCode']);
      await refusedWith('swap/beneficiary', { sendingAssetCode: 'EURC' }, 422, ['receivingAssetCode']);
    });

    it('refuses with 422 an asset that is not in the registry, naming it', async () => {
      await refusedWith('swap/own', { receivingAssetCode: 'ZZZ' }, 422, ['receivingAssetCode']);
      await refusedWith('swap/own', { sendingAssetCode: 'ZZZ' }, 422, ['sendingAssetCode']);
      await refusedWith('p2p/own', { sendingAssetCode: 'ZZZ' }, 422, ['sendingAssetCode']);
    });

    it('refuses with 422 a swap the ledger has no path for', async () => {
      // Every pair of sandbox registry assets has a pool (local/seed.ts), so no asset lacks a path;
      // one stroop is an amount no pool pays anything for, which is the same "no path" to acceptance.
      await refusedWith('swap/own', { amount: 0.0000001 }, 422, ['receivingAssetCode'], /no path/);
    });

    it('accepts a self-swap: the destination may be the source', async () => {
      const id = await acceptedWith('swap/own', { destinationWalletId: a.id });
      const [record] = await completed(alice, [id]);
      assert.equal(record.destinationWalletId, a.id);
      assert.equal(record.walletId, a.id);
    });
  });

  describe('multi-transfers', () => {
    it('requires at least one transfer', async () => {
      await refusedWith('p2p/own/multi', { transfers: [] }, 400, ['transfers']);
      await refused(alice, 'p2p/own/multi', without(valid('p2p/own/multi'), 'transfers'), 400, ['transfers']);
    });

    it('names a transfer’s member by its path: transfers.<i>.<member>', async () => {
      const cases: [unknown, string][] = [
        [{ ...leg(b.id, a.id, 1), amount: 0 }, 'transfers.1.amount'],
        [{ ...leg(b.id, a.id, 1), walletId: 'x' }, 'transfers.1.walletId'],
        [without(leg(b.id, a.id, 1), 'sendingAssetCode'), 'transfers.1.sendingAssetCode'],
        [{ ...leg(b.id, a.id, 1), fee: 0 }, 'transfers.1.fee'],
      ];
      for (const [second, field] of cases)
        await refusedWith('p2p/own/multi', secondTransfer(second), 400, [field]);
    });

    it('refuses with 400 naming transfers a sum that no JSON number holds exactly, as sendAmount must', async () => {
      // Each amount is exact; 1200000000.0000001 is not (it would read back as 1200000000).
      await refusedWith(
        'p2p/own/multi',
        { transfers: [leg(a.id, b.id, 600000000.0000001), leg(a.id, b.id, 600000000)] },
        400,
        ['transfers'],
        /JSON number holds exactly/,
      );
      // A sum of exact amounts that is exact itself is accepted, to the stroop.
      const id = await acceptedWith('p2p/own/multi', {
        transfers: [leg(a.id, b.id, 0.1), leg(a.id, b.id, 0.2)],
      });
      const [record] = await completed(alice, [id]);
      assert.equal(record.sendAmount, 0.3);
    });

    it('takes at most 40 transfers: 40 settle as one ledger transaction, 41 are refused', async () => {
      const transfers = (count: number) => Array.from({ length: count }, () => leg(a.id, b.id, 0.01));
      await refusedWith('p2p/own/multi', { transfers: transfers(41) }, 422, ['transfers']);
      const id = await acceptedWith('p2p/own/multi', { transfers: transfers(40) });
      const [record] = await completed(alice, [id]);
      assert.equal(record.legs.length, 40);
    });

    it('takes at most 18 distinct wallets: 18 settle, 19 are refused', async () => {
      const others = await Promise.all(Array.from({ length: 18 }, () => ownWallet(alice, 'USDC')));
      const fromA = (wallets: OwnWallet[]) => wallets.map((to) => leg(a.id, to.id, 0.01));
      await refusedWith('p2p/own/multi', { transfers: fromA(others) }, 422, ['transfers']);
      const id = await acceptedWith('p2p/own/multi', { transfers: fromA(others.slice(1)) });
      await completed(alice, [id]);
    });

    it('refuses with 422 transfers that are not one same-asset payment, naming the transfer', async () => {
      await refusedWith('p2p/own/multi', secondTransfer(leg(b.id, a.id, 1, 'EURC')), 422, [
        'transfers.1.sendingAssetCode',
      ]);
      await refusedWith('p2p/own/multi', secondTransfer(leg(b.id, b.id, 1)), 422, [
        'transfers.1.destinationWalletId',
      ]);
    });

    it('holds every transfer’s wallets to the wallet rules, naming the transfer’s member', async () => {
      const cases: [unknown, number, string][] = [
        [leg(b.id, pending, 1), 403, 'transfers.1.destinationWalletId'],
        [leg(pending, a.id, 1), 403, 'transfers.1.walletId'],
        [leg(randomUUID(), a.id, 1), 404, 'transfers.1.walletId'],
        [leg(b.id, bobs, 1), 404, 'transfers.1.destinationWalletId'],
      ];
      for (const [second, status, field] of cases)
        await refusedWith('p2p/own/multi', secondTransfer(second), status, [field]);
    });
  });
});

describe('idempotency: the transactionId', () => {
  let carol: Caller;
  let from: OwnWallet;
  let to: OwnWallet;
  const p2p = (amount: number) => ({
    transactionId: randomUUID(),
    walletId: from.id,
    destinationWalletId: to.id,
    sendingAssetCode: 'USDC',
    amount,
  });

  /** The payments the ledger shows from the source wallet (of `amount`, when given). */
  async function paymentsFrom(wallet: OwnWallet, amount?: string) {
    const page = await horizon().payments().forAccount(wallet.publicKey).limit(200).call();
    return page.records.filter((op) => {
      const payment = op as { type: string; from?: string; amount?: string };
      return (
        payment.type === 'payment' &&
        payment.from === wallet.publicKey &&
        (!amount || payment.amount === amount)
      );
    });
  }

  /** The records GET /transactions lists under a transactionId. */
  const recordsOf = async (caller: Caller, transactionId: string) =>
    (await listed(caller)).filter((record) => record.idempotencyKey === transactionId);

  beforeAll(async () => {
    carol = await newCaller();
    [from, to] = await Promise.all([ownWallet(carol, 'USDC', 100), ownWallet(carol, 'USDC')]);
  });

  it('answers a replay after completion with the first record, isIdempotent, and pays nothing again', async () => {
    const body = p2p(1.5);
    const id = await accepted(carol, 'p2p/own', body);
    const record = await settled(carol, id);
    assert.equal(record.status, 'completed', JSON.stringify(record));
    const paid = (await paymentsFrom(from)).length;

    const replay = await submit(carol, 'p2p/own', body);
    assert.equal(replay.status, 202, JSON.stringify(replay.body));
    assert.equal(replay.body.isIdempotent, true);
    assert.equal(replay.body.transactionRecordId, id);
    // The replay's checks passed, and its put found the record: the entries it wrote under each wallet
    // name the record again, and each wallet's list still shows it once.
    for (const wallet of [from, to]) {
      const listed = await as(carol, `/transactions?walletId=${wallet.id}&limit=100`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const ids = listed.body.data.map((r: { transactionRecordId: string }) => r.transactionRecordId);
      assert.equal(ids.filter((listedId: string) => listedId === id).length, 1);
    }
    // Anything the replay had set going would be on the ledger once a payment accepted after it settles.
    await completed(carol, [await accepted(carol, 'p2p/own', p2p(0.25))]);
    assert.equal((await paymentsFrom(from)).length, paid + 1);
    assert.equal((await recordsOf(carol, body.transactionId)).length, 1);
  });

  it('answers a replay from its record when the checks would now refuse the body: the funds it moved are spent', async () => {
    // The checks run before the record is looked for (idempotency.ts): a refusal is final only when no
    // record holds the transactionId.
    const [poor, other] = await Promise.all([ownWallet(carol, 'USDC', 3), ownWallet(carol, 'USDC')]);
    const body = { ...p2p(3), walletId: poor.id, destinationWalletId: other.id };
    const id = await accepted(carol, 'p2p/own', body);
    assert.equal((await settled(carol, id)).status, 'completed');
    // A new payment of the same body is over what the wallet can spend now.
    await refused(carol, 'p2p/own', { ...body, transactionId: randomUUID() }, 422, ['amount']);
    const replay = await submit(carol, 'p2p/own', body);
    assert.equal(replay.status, 202, JSON.stringify(replay.body));
    assert.equal(replay.body.isIdempotent, true);
    assert.equal(replay.body.transactionRecordId, id);
    // Another body under it is still 409, not the checks' 422.
    await refused(carol, 'p2p/own', { ...body, amount: 2 }, 409, ['transactionId']);
    assert.equal((await recordsOf(carol, body.transactionId)).length, 1);
  });

  it('answers 409 for the same transactionId with another body or on another route, and writes nothing', async () => {
    const body = p2p(2);
    const id = await accepted(carol, 'p2p/own', body);
    const original = await settled(carol, id);
    const { transactionId } = body;
    await refused(carol, 'p2p/own', { ...body, amount: 2.5 }, 409, ['transactionId']);
    await refused(carol, 'p2p/own', { ...body, fromRef: 'NEW-REF' }, 409, ['transactionId']);
    await refused(carol, 'swap/own', { ...body, receivingAssetCode: 'EURC' }, 409, ['transactionId']);
    await refused(carol, 'p2p/own/multi', { transactionId, transfers: [leg(from.id, to.id, 2)] }, 409, [
      'transactionId',
    ]);
    assert.deepEqual((await as(carol, `/transactions/${id}`)).body, original);
  });

  it('keeps each tenant’s transactionIds apart: another tenant’s same id is a new payment', async () => {
    const body = p2p(1);
    const id = await accepted(carol, 'p2p/own', body);
    const dave = await newCaller();
    const [x, y] = await Promise.all([ownWallet(dave, 'USDC', 10), ownWallet(dave, 'USDC')]);
    const theirs = await submit(dave, 'p2p/own', { ...body, walletId: x.id, destinationWalletId: y.id });
    assert.equal(theirs.status, 202, JSON.stringify(theirs.body));
    assert.equal(theirs.body.isIdempotent, false);
    assert.notEqual(theirs.body.transactionRecordId, id);
    await Promise.all([completed(carol, [id]), completed(dave, [theirs.body.transactionRecordId])]);
  });

  it('makes one record and one ledger payment of 20 identical concurrent submissions', async () => {
    const body = p2p(0.1234567);
    const answers = await Promise.all(Array.from({ length: 20 }, () => submit(carol, 'p2p/own', body)));
    for (const answer of answers) assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const ids = new Set(answers.map((answer) => answer.body.transactionRecordId));
    assert.equal(ids.size, 1);
    assert.equal(answers.filter((answer) => answer.body.isIdempotent === false).length, 1);
    await completed(carol, [...ids]);
    assert.equal((await recordsOf(carol, body.transactionId)).length, 1);
    assert.equal((await paymentsFrom(from, '0.1234567')).length, 1);
  });

  it('answers 20 concurrent submissions of two bodies under one transactionId with one record or 409', async () => {
    const first = p2p(0.3);
    const second = { ...first, amount: 0.4 };
    const bodies = Array.from({ length: 20 }, (_, i) => (i % 2 ? second : first));
    const answers = await Promise.all(bodies.map((body) => submit(carol, 'p2p/own', body)));
    const won = answers.filter((answer) => answer.status === 202);
    for (const answer of answers) assert.ok([202, 409].includes(answer.status), JSON.stringify(answer.body));
    assert.equal(new Set(won.map((answer) => answer.body.transactionRecordId)).size, 1);
    assert.equal(won.filter((answer) => answer.body.isIdempotent === false).length, 1);
    // Whichever body was written first is the payment: every submission of it is answered 202, the other 409.
    const winner = bodies[answers.indexOf(won.find((answer) => !answer.body.isIdempotent) as ApiResponse)];
    assert.deepEqual(
      answers.map((answer) => answer.status),
      bodies.map((body) => (body === winner ? 202 : 409)),
    );
    const [record] = await completed(carol, [won[0]?.body.transactionRecordId]);
    assert.equal(record.sendAmount, winner?.amount);
    assert.equal((await recordsOf(carol, first.transactionId)).length, 1);
  });
});
