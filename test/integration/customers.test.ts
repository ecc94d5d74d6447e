// Customers of bespoke connectors against the local stack (issue #22 §1): registration through the
// gateway, the provider simulator's review and decision by signed notification, the sandbox decision
// helper, Customer_Verified / Customer_Rejected at a webhook receiver, and another tenant everywhere.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { as, assertFieldError, type Caller, newCaller } from '../support/api.ts';
import { BESPOKE_CONNECTOR_ID, bespokeIndividual, CONNECTOR_ID, customerWhen } from '../support/fixtures.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const pathOf = (customerId: string, kind = 'individual', connectorId = BESPOKE_CONNECTOR_ID) =>
  `/customers/${customerId}/connectors/${connectorId}/register/${kind}`;

const register = (caller: Caller, customerId: string, body: unknown, kind = 'individual') =>
  as(caller, pathOf(customerId, kind), { method: 'PUT', body });

const decide = (caller: Caller, customerId: string, decision: string) =>
  as(caller, `/sandbox/customers/${customerId}/connectors/${BESPOKE_CONNECTOR_ID}/decision`, {
    method: 'POST',
    body: { decision },
  });

/** A customer the simulator holds PENDING until the decision helper (its lastName starts with HOLD). */
const held = { ...bespokeIndividual, lastName: 'Holdsworth' };
const newId = () => `cust-${randomUUID().slice(0, 8)}`;

interface Event {
  id: string;
  type: string;
  source: string;
  // biome-ignore lint/suspicious/noExplicitAny: asserted member by member.
  data: any;
}

describe('customers of bespoke connectors', () => {
  let alice: Caller;
  let bob: Caller;
  let receiver: Receiver;
  const events = () => receiver.received.map((d) => JSON.parse(d.body) as Event);
  const eventFor = async (customerId: string, type: string, review = 1) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const found = events().filter(
        (e) => e.type === type && e.data.customerId === customerId && e.data.review === review,
      );
      if (found.length) return found;
      assert.ok(Date.now() < deadline, `no ${type} for ${customerId} (review ${review})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /**
   * An event caused now, awaited at Alice's receiver: a positive signal for a negative check. What an
   * earlier decision wrongly caused (a duplicate, another tenant's event) would have come by then.
   */
  const laterEventArrives = async () => {
    const id = newId();
    assert.equal((await register(alice, id, held)).status, 201);
    assert.equal((await decide(alice, id, 'VERIFIED')).status, 202);
    await eventFor(id, 'Customer_Verified');
  };

  beforeAll(async () => {
    [alice, bob, receiver] = await Promise.all([newCaller(), newCaller(), startReceiver()]);
    const hook = await as(alice, '/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['Customer_Verified', 'Customer_Rejected'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
  });
  afterAll(() => receiver.close());

  it('registers PENDING (201); the same body again is 200 with the same registration; another body while pending is 409', async () => {
    const id = newId();
    const first = await register(alice, id, held);
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.status, 'PENDING');
    assert.equal(first.body.kind, 'individual');
    assert.equal(first.body.review, 1);
    assert.equal(first.body.connectorId, BESPOKE_CONNECTOR_ID);
    assert.deepEqual(first.body.individual, held);
    const again = await register(alice, id, held);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body, first.body);
    const changed = await register(alice, id, { ...held, idNumber: '8001015009087' });
    assertFieldError(changed, 409, 'body');
    const read = await as(alice, `/customers/${id}/connectors/${BESPOKE_CONNECTOR_ID}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, first.body);
  });

  it('the sandbox decision verifies at once: Customer_Verified reaches the webhook with the registration in data', async () => {
    const id = newId();
    assert.equal((await register(alice, id, held)).status, 201);
    const asked = await decide(alice, id, 'VERIFIED');
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    const verified = await customerWhen(alice, id, 'VERIFIED');
    assert.ok(verified.decidedAt);
    const [event] = await eventFor(id, 'Customer_Verified');
    await laterEventArrives();
    assert.equal(events().filter((e) => e.data.customerId === id).length, 1, 'one event, no duplicate');
    assert.equal(event?.source, 'customers');
    assert.deepEqual(event?.data, verified);
    // Asked again for the decision it has: answered; the other decision is a conflict.
    assert.equal((await decide(alice, id, 'VERIFIED')).status, 202);
    assertFieldError(await decide(alice, id, 'REJECTED'), 409, 'decision');
  });

  it('left alone, the provider decides: verified after its delay, rejected for a REJECT… name (with its reason)', async () => {
    const [good, bad] = [newId(), newId()];
    assert.equal((await register(alice, good, bespokeIndividual)).status, 201);
    assert.equal((await register(alice, bad, { ...bespokeIndividual, lastName: 'Rejectable' })).status, 201);
    await customerWhen(alice, good, 'VERIFIED');
    const rejected = await customerWhen(alice, bad, 'REJECTED');
    assert.match(rejected.reason, /could not verify/);
    const [event] = await eventFor(bad, 'Customer_Rejected');
    assert.equal(event?.data.status, 'REJECTED');
  });

  it('after a decision, another body starts the next review (200, PENDING, review 2) with its own event', async () => {
    const id = newId();
    assert.equal((await register(alice, id, held)).status, 201);
    assert.equal((await decide(alice, id, 'REJECTED')).status, 202);
    await customerWhen(alice, id, 'REJECTED');
    // The same body after the decision: the registration as it stands, no new review.
    const same = await register(alice, id, held);
    assert.equal(same.status, 200);
    assert.equal(same.body.status, 'REJECTED');
    const next = await register(alice, id, { ...held, idNumber: '8001015009087' });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.equal(next.body.status, 'PENDING');
    assert.equal(next.body.review, 2);
    assert.equal(next.body.reason, null);
    assert.equal((await decide(alice, id, 'VERIFIED')).status, 202);
    await customerWhen(alice, id, 'VERIFIED');
    const [verified] = await eventFor(id, 'Customer_Verified', 2);
    const [rejected] = await eventFor(id, 'Customer_Rejected', 1);
    assert.notEqual(verified?.id, rejected?.id);
  });

  it('refuses bad input with the field named: customerId, identity shape, the members the connector needs, the connector', async () => {
    assertFieldError(await register(alice, 'no spaces allowed', held), 400, 'customerId');
    assertFieldError(await register(alice, 'x'.repeat(65), held), 400, 'customerId');
    assertFieldError(await register(alice, newId(), { ...held, idType: 'LIBRARY_CARD' }), 400, 'idType');
    assertFieldError(await register(alice, newId(), { ...held, nickname: 'T' }), 400, 'nickname');
    const { dateOfBirth: _, idNumber: __, ...thin } = held;
    const missing = await register(alice, newId(), thin);
    assertFieldError(missing, 422, 'dateOfBirth', /required by connector/);
    assertFieldError(missing, 422, 'idNumber');
    const business = await register(alice, newId(), { registeredName: 'Nkosi Traders' }, 'business');
    assertFieldError(business, 422, 'registrationNumber');
    assertFieldError(business, 422, 'countryIsoCode2');
    const standard = await as(alice, pathOf(newId(), 'individual', CONNECTOR_ID), {
      method: 'PUT',
      body: held,
    });
    assertFieldError(standard, 422, 'connectorId', /BESPOKE/);
    const unknown = await as(alice, pathOf(newId(), 'individual', 'zz-no-such-connector'), {
      method: 'PUT',
      body: held,
    });
    assert.equal(unknown.status, 404);
  });

  it('another tenant neither reads nor decides a customer, and its own customerId of the same name is its own', async () => {
    const id = newId();
    assert.equal((await register(alice, id, held)).status, 201);
    assert.equal((await as(bob, `/customers/${id}/connectors/${BESPOKE_CONNECTOR_ID}`)).status, 404);
    assert.equal((await decide(bob, id, 'VERIFIED')).status, 404);
    const bobs = await register(bob, id, { ...held, firstName: 'Bongani' });
    assert.equal(bobs.status, 201, JSON.stringify(bobs.body));
    assert.equal(bobs.body.individual.firstName, 'Bongani');
    assert.equal((await decide(bob, id, 'VERIFIED')).status, 202);
    await customerWhen(bob, id, 'VERIFIED');
    const alices = await as(alice, `/customers/${id}/connectors/${BESPOKE_CONNECTOR_ID}`);
    assert.equal(alices.body.status, 'PENDING');
    assert.equal(alices.body.individual.firstName, held.firstName);
    // Bob's decision is not Alice's event: none by the time an event of hers decided after it has come.
    await laterEventArrives();
    assert.equal(events().filter((e) => e.data.customerId === id).length, 0);
  });
});
