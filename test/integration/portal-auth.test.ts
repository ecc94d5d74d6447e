// The business portal's sign-in and roles against the real stack: a one-time code by email (read from
// the SES emulator), a session cookie that only mints short-lived person tokens, roles held by the
// server on every call, owners managing the team, the audit log, and tenants kept apart.
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import { as, type Caller, call, newCaller } from '../support/api.ts';
import {
  addPerson,
  asPerson,
  codesSentTo,
  newEmail,
  newPerson,
  personTokenOf,
  signIn,
  signInCode,
} from '../support/people.ts';

type Person = Awaited<ReturnType<typeof newPerson>>;

const newWallet = { walletName: 'Portal', assetCode: 'USDC', ownAccount: true };

describe('portal sign-in', () => {
  let caller: Caller;
  beforeAll(async () => {
    caller = await newCaller();
  });

  it('emails a one-time code, and the code gives an HttpOnly, Secure, SameSite=Strict session', async () => {
    const { email } = await addPerson(caller.tenant, 'owner');
    const code = await signInCode(email);
    const session = await call('/portal/sessions', { method: 'POST', body: { email, code } });
    assert.equal(session.status, 201);
    assert.deepEqual(session.body.memberships, [
      {
        environment: 'sandbox',
        associationId: caller.tenant.associationId,
        associationName: 'Test sandbox tenant',
        role: 'owner',
      },
    ]);
    const cookie = session.headers.get('set-cookie') ?? '';
    assert.match(
      cookie,
      /^__Host-pgw_session=[\w-]{43}; Path=\/; HttpOnly; Secure; SameSite=Strict; Max-Age=28800$/,
    );
    // The code works once.
    const again = await call('/portal/sessions', { method: 'POST', body: { email, code } });
    assert.equal(again.status, 401);
    const read = await call('/portal/session', { headers: { cookie: cookie.split(';')[0] as string } });
    assert.equal(read.status, 200);
    assert.equal(read.body.email, email);
  });

  it('answers an unknown address as it answers a known one, and sends nothing', async () => {
    const email = newEmail('stranger');
    const asked = await call('/portal/sign-in', { method: 'POST', body: { email } });
    assert.equal(asked.status, 202);
    assert.deepEqual(await codesSentTo(email), []);
  });

  it('spends a code at the fifth wrong try', async () => {
    const { email } = await addPerson(caller.tenant, 'viewer');
    const code = await signInCode(email);
    const wrong = code === '00000000' ? '00000001' : '00000000';
    for (let i = 0; i < 5; i += 1) {
      const tried = await call('/portal/sessions', { method: 'POST', body: { email, code: wrong } });
      assert.equal(tried.status, 401);
    }
    const right = await call('/portal/sessions', { method: 'POST', body: { email, code } });
    assert.equal(right.status, 401, 'the code was spent');
  });

  it('refuses a request another site made, and a missing or ended session', async () => {
    const { email } = await addPerson(caller.tenant, 'viewer');
    const cookie = await signIn(email);
    const crossSite = await call('/portal/token', {
      method: 'POST',
      body: {},
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(crossSite.status, 403);
    assert.equal((await call('/portal/token', { method: 'POST', body: {} })).status, 401);
    const out = await call('/portal/session', { method: 'DELETE', headers: { cookie } });
    assert.equal(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', /^__Host-pgw_session=; .*Max-Age=0$/);
    assert.equal(
      (await call('/portal/token', { method: 'POST', body: {}, headers: { cookie } })).status,
      401,
    );
  });
});

describe('portal roles, enforced by the server', () => {
  let caller: Caller;
  let owner: Person;
  let developer: Person;
  let viewer: Person;
  beforeAll(async () => {
    caller = await newCaller();
    [owner, developer, viewer] = await Promise.all([
      newPerson(caller.tenant, 'owner'),
      newPerson(caller.tenant, 'developer'),
      newPerson(caller.tenant, 'viewer'),
    ]);
  });

  it('a person’s token alone reads the tenant’s data: no API key in the browser', async () => {
    const wallet = await as(caller, '/wallets', { method: 'POST', body: newWallet });
    const read = await asPerson(viewer, `/wallets/${wallet.body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.id, wallet.body.id);
  });

  it('a viewer reads but cannot change anything; a developer can, but cannot manage the team', async () => {
    const refused = await asPerson(viewer, '/wallets', { method: 'POST', body: newWallet });
    assert.equal(refused.status, 403);
    assert.match(refused.body.detail, /viewer.*needs developer/);
    assert.equal((await asPerson(developer, '/wallets', { method: 'POST', body: newWallet })).status, 201);
    const invite = { email: newEmail(), role: 'viewer' };
    assert.equal((await asPerson(developer, '/team/members', { method: 'POST', body: invite })).status, 403);
    assert.equal((await asPerson(viewer, '/team/members')).status, 403);
    assert.equal((await asPerson(viewer, '/team/audit-log')).status, 403);
  });

  it('an owner invites and removes people; a removed person is refused at once', async () => {
    const email = newEmail('invited');
    const invited = await asPerson(owner, '/team/members', {
      method: 'POST',
      body: { email, role: 'developer' },
    });
    assert.equal(invited.status, 201);
    assert.equal(invited.body.invitedBy, owner.email);
    const twice = await asPerson(owner, '/team/members', { method: 'POST', body: { email, role: 'viewer' } });
    assert.equal(twice.status, 409);
    const cookie = await signIn(email);
    const token = await personTokenOf(cookie);
    assert.equal((await call('/wallets', { token })).status, 200);
    const team = await asPerson(owner, '/team/members');
    assert.ok(team.body.data.some((m: { email: string }) => m.email === email));
    const removed = await asPerson(owner, `/team/members/${invited.body.memberId}`, { method: 'DELETE' });
    assert.equal(removed.status, 200);
    assert.equal((await call('/wallets', { token })).status, 401, 'the token outlived the membership');
    const self = await asPerson(owner, `/team/members/${owner.memberId}`, { method: 'DELETE' });
    assert.equal(self.status, 400);
  });

  it('the audit log has each person’s state changes, refusals and sign-ins: who, what, when, from where', async () => {
    await asPerson(viewer, '/wallets', { method: 'POST', body: newWallet });
    const log = await asPerson(owner, '/team/audit-log?limit=100');
    assert.equal(log.status, 200);
    const entries: { actor: string; action: string; status: number; sourceIp: string; role: string }[] =
      log.body.data;
    assert.ok(
      entries.some((e) => e.actor === viewer.email && e.action === 'POST /wallets' && e.status === 403),
    );
    assert.ok(
      entries.some((e) => e.actor === developer.email && e.action === 'POST /wallets' && e.status === 201),
    );
    assert.ok(
      entries.some((e) => e.actor === owner.email && e.action === 'POST /team/members' && e.status === 201),
    );
    assert.ok(entries.some((e) => e.actor === owner.email && e.action === 'sign-in'));
    assert.ok(entries.every((e) => e.sourceIp !== ''));
    // Reads are not in it, and an integrator's client is not a person.
    assert.ok(entries.every((e) => !e.action.startsWith('GET ')));
  });

  it('another tenant’s person sees nothing of this tenant', async () => {
    const wallet = await as(caller, '/wallets', { method: 'POST', body: newWallet });
    const other = await newCaller();
    const stranger = await newPerson(other.tenant, 'owner');
    assert.equal((await asPerson(stranger, `/wallets/${wallet.body.id}`)).status, 404);
    const list = await asPerson(stranger, '/wallets');
    assert.deepEqual(list.body.data, []);
    // Nor can they mint a token for it.
    const minted = await call('/portal/token', {
      method: 'POST',
      body: { associationId: caller.tenant.associationId },
      headers: { cookie: stranger.cookie },
    });
    assert.equal(minted.status, 403);
  });

  it('a person’s token is no application’s: with an x-service-auth key it is refused', async () => {
    const mixed = await call('/wallets', { apiKey: caller.tenant.apiKey, token: owner.token });
    assert.equal(mixed.status, 401);
  });
});
