// Statements end to end against the local stack: two wallets of one business move USDC every way the
// gateway moves it (sandbox funding, P2P, a swap, a multi-transfer, an off-ramp refunded on the ledger, an
// on-ramp), and an outside account pays one of them directly on the ledger. Each wallet's statement
// shows every movement once, with its sign, description and own reference; running balances reconcile
// with the ledger; rowIds hold across exports and pages; the CSV is the JSON; and the query's rules.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Asset, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import BigNumber from 'bignumber.js';
import { beforeAll, describe, it } from 'vitest';
import { config } from '../../lib/config.ts';
import { pay } from '../../lib/ledger/operations.ts';
import { platformAccount } from '../../lib/ledger/platform-accounts.ts';
import { as, assertFieldError, baseUrl, type Caller, newCaller, pagesAt } from '../support/api.ts';
import {
  bankDestination,
  beneficiaryAddress,
  compliantIndividual,
  keMobileMoney,
  ONRAMP_CONNECTOR_ID,
  RAMP_CONNECTOR_ID,
} from '../support/fixtures.ts';
import {
  accepted,
  balancesOf,
  horizon,
  type OwnWallet,
  outsiderAccount,
  ownWallet,
  recordWhen,
  settled,
  submit,
} from '../support/payments.ts';

// biome-ignore lint/suspicious/noExplicitAny: lines are asserted on member by member.
type Line = any;

const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/** The wallet's statement of `assetCode` from yesterday to now, `limit` lines a page. */
const rangeQuery = (wallet: OwnWallet, assetCode: string, limit: number) =>
  new URLSearchParams({
    walletId: wallet.id,
    assetCode,
    startDate: yesterday(),
    endDate: new Date().toISOString(),
    limit: String(limit),
  });

/** Every line of the wallet's statement of `assetCode` from yesterday to now, page by page. */
async function statementOf(caller: Caller, wallet: OwnWallet, assetCode: string, limit = 100) {
  const query = rangeQuery(wallet, assetCode, limit);
  const pages = await pagesAt(caller, '/statements/transactions', query.toString());
  const first = await as(caller, `/statements/transactions?${query}`);
  return { lines: pages.flat() as Line[], envelope: first.body, pages };
}

/** A line as the tests compare them: what it says, not where it is. */
const gist = (line: Line) =>
  `${line.direction} ${new BigNumber(line.amount).toFixed(7)} ${line.description} ref=${line.reference}`;

/** RFC 4180 as a spreadsheet reads it: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  assert.equal(field + row.join(''), '', 'the last row ends with CRLF');
  return rows;
}

/** The CSV download followed page by page through its Link headers: the header row, then the rows. */
async function csvOf(caller: Caller, wallet: OwnWallet, assetCode: string, limit: number) {
  const query = rangeQuery(wallet, assetCode, limit);
  let url: string | null = `${baseUrl()}/statements/transactions?${query}`;
  let header: string[] | undefined;
  const rows: string[][] = [];
  while (url) {
    const response: Response = await fetch(url, {
      headers: {
        accept: 'text/csv',
        'x-service-auth': caller.tenant.apiKey,
        authorization: `Bearer ${caller.token}`,
      },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'a byte order mark for spreadsheets');
    const [head, ...body] = parseCsv(bytes.subarray(3).toString('utf8'));
    header ??= head;
    assert.deepEqual(head, header, 'every page has the same header row');
    rows.push(...body);
    const next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '');
    url = next?.[1] ? new URL(next[1], baseUrl()).toString() : null;
  }
  return { header: header ?? [], rows };
}

/** Running balances reconcile: each line moves the one before by its signed amount, from the opening. */
function assertReconciles(envelope: Line, lines: Line[]) {
  let balance = new BigNumber(envelope.openingBalance);
  for (const line of lines) {
    balance = balance.plus(line.direction === 'credit' ? line.amount : -line.amount);
    assert.equal(new BigNumber(line.runningBalance).toFixed(7), balance.toFixed(7), JSON.stringify(line));
  }
  assert.equal(new BigNumber(envelope.closingBalance).toFixed(7), balance.toFixed(7));
}

/** A beneficiary with one payment destination, and a quote (`path`) through it. */
async function quoted(
  caller: Caller,
  beneficiary: Record<string, unknown>,
  destination: Record<string, unknown>,
  path: string,
  quote: { amount: number; connectorId: string },
) {
  const created = await as(caller, '/beneficiaries', { method: 'POST', body: beneficiary });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const at = await as(caller, `/beneficiaries/${created.body.id}/payment-destinations`, {
    method: 'POST',
    body: destination,
  });
  assert.equal(at.status, 201, JSON.stringify(at.body));
  const ids = { beneficiaryId: created.body.id as string, paymentDestinationId: at.body.id as string };
  const priced = await as(caller, path, { method: 'POST', body: { ...quote, ...ids } });
  assert.equal(priced.status, 201, JSON.stringify(priced.body));
  return { ...ids, quoteId: priced.body.quoteId as string };
}

describe('statements', () => {
  let alice: Caller;
  let main: OwnWallet;
  let treasury: OwnWallet;
  let outsider: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    alice = await newCaller();
    main = await ownWallet(alice, 'USDC', 1000, 'Main');
    treasury = await ownWallet(alice, 'USDC', undefined, 'Treasury');

    // P2P, with the sender's and the recipient's references.
    ids.p2p = await accepted(alice, 'p2p/own', {
      transactionId: randomUUID(),
      walletId: main.id,
      destinationWalletId: treasury.id,
      sendingAssetCode: 'USDC',
      amount: 25.5,
      fromRef: 'RENT-11',
      toRef: 'IN-11',
    });
    // A swap into the other wallet's EURC.
    ids.swap = await accepted(alice, 'swap/own', {
      transactionId: randomUUID(),
      walletId: main.id,
      destinationWalletId: treasury.id,
      sendingAssetCode: 'USDC',
      receivingAssetCode: 'EURC',
      amount: 10,
    });
    // A multi-transfer: two legs one way and one back, one ledger transaction.
    ids.multi = await accepted(alice, 'p2p/own/multi', {
      transactionId: randomUUID(),
      transfers: [
        { walletId: main.id, destinationWalletId: treasury.id, sendingAssetCode: 'USDC', amount: 1 },
        { walletId: main.id, destinationWalletId: treasury.id, sendingAssetCode: 'USDC', amount: 2.25 },
        { walletId: treasury.id, destinationWalletId: main.id, sendingAssetCode: 'USDC', amount: 0.5 },
      ],
      fromRef: 'MULTI-1',
    });
    for (const id of [ids.p2p, ids.swap, ids.multi])
      assert.equal((await settled(alice, id as string)).status, 'completed');

    // An off-ramp held at the provider, failed there, and refunded on the ledger.
    const payee = await quoted(
      alice,
      { individual: compliantIndividual, addresses: [beneficiaryAddress] },
      bankDestination,
      '/quotes',
      { amount: 40, connectorId: RAMP_CONNECTOR_ID },
    );
    const offramp = await submit(alice, 'offramp', {
      transactionId: randomUUID(),
      walletId: main.id,
      beneficiaryId: payee.beneficiaryId,
      paymentDestinationId: payee.paymentDestinationId,
      quoteId: payee.quoteId,
      sendingAssetCode: 'USDC',
      purpose: 'FAMILY_SUPPORT',
      sourceOfFunds: 'SALARY',
      fromRef: 'OUT-1',
      toRef: 'HOLD-1',
    });
    assert.equal(offramp.status, 202, JSON.stringify(offramp.body));
    ids.offramp = offramp.body.transactionRecordId;
    await recordWhen(alice, ids.offramp as string, (r) => r.status === 'processing' && r.externalReference);
    const failed = await as(alice, `/sandbox/transactions/${ids.offramp}/fail`, { method: 'POST' });
    assert.equal(failed.status, 202, JSON.stringify(failed.body));
    await recordWhen(alice, ids.offramp as string, (r) => r.status === 'refund_completed');

    // An on-ramp collected from a Kenyan counterparty, paid into the wallet.
    const kenyan = {
      ...compliantIndividual,
      firstName: 'Wanjiru',
      lastName: 'Kamau',
      idCountryIsoCode2: 'KE',
    };
    const sender = await quoted(alice, { individual: kenyan }, keMobileMoney, '/quotes?type=onramp', {
      amount: 1300,
      connectorId: ONRAMP_CONNECTOR_ID,
    });
    const onramp = await submit(alice, 'onramp', {
      transactionId: randomUUID(),
      walletId: main.id,
      senderId: sender.beneficiaryId,
      paymentDestinationId: sender.paymentDestinationId,
      quoteId: sender.quoteId,
      senderSourceOfFunds: 'SALARY',
      toRef: 'TOPUP-1',
    });
    assert.equal(onramp.status, 202, JSON.stringify(onramp.body));
    ids.onramp = onramp.body.transactionRecordId;
    const onrampRecord = await recordWhen(alice, ids.onramp as string, (r) => r.status === 'completed');
    ids.onrampAmount = new BigNumber(onrampRecord.receiveAmount).toFixed(7);

    // An outside account, given USDC by the issuer, pays the wallet on the ledger: no record, no API.
    const keys = await outsiderAccount(alice, ['USDC']);
    outsider = keys.publicKey();
    const issuer = await platformAccount('sandbox', 'issuer:USDC');
    const usdc = { code: 'USDC', issuer: issuer.publicKey };
    const given = await pay({
      environment: 'sandbox',
      intentId: `statements-test:${randomUUID()}`,
      from: issuer,
      to: outsider,
      asset: usdc,
      amount: '50',
    });
    assert.equal(given.status, 'succeeded');
    const server = horizon();
    const tx = new TransactionBuilder(await server.loadAccount(outsider), {
      fee: '100',
      networkPassphrase: config().NETWORK_PASSPHRASE_SANDBOX,
    })
      .addOperation(
        Operation.payment({
          destination: main.publicKey,
          asset: new Asset('USDC', usdc.issuer),
          amount: '7.5',
        }),
      )
      .setTimeout(60)
      .build();
    tx.sign(keys);
    await server.submitTransaction(tx);
  });

  it('shows each movement of the paying wallet once, with its sign, description and own reference', async () => {
    const { lines, envelope } = await statementOf(alice, main, 'USDC');
    const short = `G…${outsider.slice(-4)}`;
    const payout = `${compliantIndividual.firstName} ${compliantIndividual.lastName} (ZA bank)`;
    const offrampAmount = lines.find((l) => l.transactionRecordId === ids.offramp)?.amount;
    assert.deepEqual(
      lines.map(gist).sort(),
      [
        'credit 1000.0000000 Sandbox funding ref=null',
        'debit 25.5000000 P2P to Treasury ref=RENT-11',
        'debit 10.0000000 Swap USDC → EURC ref=null',
        'debit 1.0000000 Transfer to Treasury ref=MULTI-1',
        'debit 2.2500000 Transfer to Treasury ref=MULTI-1',
        'credit 0.5000000 Transfer from Treasury ref=null',
        `debit ${new BigNumber(offrampAmount).toFixed(7)} Payout to ${payout} ref=OUT-1`,
        `credit ${new BigNumber(offrampAmount).toFixed(7)} Refund of payout to ${payout} ref=OUT-1`,
        `credit ${ids.onrampAmount} Collection from Wanjiru Kamau (KE mobile money) ref=TOPUP-1`,
        `credit 7.5000000 Received from ${short} ref=null`,
      ].sort(),
    );
    // Each line names its record (none for funding and the outside payer) and the ledger transaction.
    const byRecord = (id: string | undefined) => lines.filter((l) => l.transactionRecordId === id).length;
    assert.deepEqual(
      [ids.p2p, ids.swap, ids.multi, ids.offramp, ids.onramp, null].map((id) => byRecord(id as string)),
      [1, 1, 3, 2, 1, 2],
    );
    for (const line of lines) {
      assert.match(line.stellarTxHash, /^[0-9a-f]{64}$/);
      assert.equal(line.assetCode, 'USDC');
    }
    assert.equal(lines.find((l) => l.description.startsWith('Received'))?.counterparty, outsider);
    assert.equal(envelope.assetCode, 'USDC');
    assert.equal(envelope.openingBalance, 0);
  });

  it('shows the receiving wallet’s side: credits with the recipient’s reference, per asset', async () => {
    const usdc = await statementOf(alice, treasury, 'USDC');
    assert.deepEqual(
      usdc.lines.map(gist).sort(),
      [
        'credit 25.5000000 P2P from Main ref=IN-11',
        'credit 1.0000000 Transfer from Main ref=null',
        'credit 2.2500000 Transfer from Main ref=null',
        'debit 0.5000000 Transfer to Main ref=MULTI-1',
      ].sort(),
    );
    const swap = await as(alice, `/transactions/${ids.swap}`);
    const eurc = await statementOf(alice, treasury, 'EURC');
    assert.deepEqual(eurc.lines.map(gist), [
      `credit ${new BigNumber(swap.body.receiveAmount).toFixed(7)} Swap USDC → EURC ref=null`,
    ]);
    assert.equal(eurc.lines[0].transactionRecordId, ids.swap);
  });

  it('keeps running balances that reconcile line by line and end at the ledger’s balance', async () => {
    for (const [wallet, code] of [
      [main, 'USDC'],
      [treasury, 'USDC'],
      [treasury, 'EURC'],
      [main, 'XLM'],
    ] as const) {
      const { lines, envelope } = await statementOf(alice, wallet, code);
      assert.ok(lines.length > 0, `${code} has lines`);
      assertReconciles(envelope, lines);
      const ledger = (await balancesOf(wallet.publicKey))[code];
      assert.equal(new BigNumber(envelope.closingBalance).toFixed(7), ledger, `${code} closing`);
      assert.equal(new BigNumber(lines.at(-1).runningBalance).toFixed(7), ledger, `${code} last line`);
    }
    // A range that starts after some lines opens with the balance before it.
    const { lines } = await statementOf(alice, main, 'USDC');
    const later = lines[4] as Line;
    const query = new URLSearchParams({
      walletId: main.id,
      assetCode: 'USDC',
      startDate: later.date,
      endDate: new Date().toISOString(),
    });
    const tail = await as(alice, `/statements/transactions?${query}`);
    assert.equal(tail.status, 200, JSON.stringify(tail.body));
    const before = lines.filter((l) => l.date < later.date).at(-1);
    assert.equal(tail.body.openingBalance, before ? before.runningBalance : 0);
    assert.equal(tail.body.data[0].rowId, lines.find((l) => l.date >= later.date).rowId);
    assertReconciles(tail.body, tail.body.data);
  });

  it('gives every line a rowId of its own, the same on every export and across pages', async () => {
    const first = await statementOf(alice, main, 'USDC');
    const rowIds = first.lines.map((l) => l.rowId);
    assert.equal(new Set(rowIds).size, rowIds.length, 'rowIds are unique (the multi-transfer’s legs too)');
    const again = await statementOf(alice, main, 'USDC');
    assert.deepEqual(
      again.lines.map((l) => l.rowId),
      rowIds,
    );
    const paged = await statementOf(alice, main, 'USDC', 3);
    assert.ok(paged.pages.length >= 4, `${paged.pages.length} pages of 3`);
    assert.deepEqual(
      paged.lines.map((l) => l.rowId),
      rowIds,
    );
    assert.deepEqual(paged.lines, first.lines);
  });

  it('answers Accept: text/csv with the same lines, page by page through Link headers', async () => {
    const json = await statementOf(alice, main, 'USDC');
    const csv = await csvOf(alice, main, 'USDC', 4);
    assert.deepEqual(csv.header, Object.keys(json.lines[0]));
    assert.deepEqual(
      csv.rows,
      json.lines.map((line) =>
        csv.header.map((column) => (line[column] === null ? '' : String(line[column]))),
      ),
    );
  });

  it('refuses what the rules refuse, naming each member', async () => {
    const missing = await as(alice, '/statements/transactions');
    for (const field of ['walletId', 'assetCode', 'startDate', 'endDate'])
      assertFieldError(missing, 400, field, /is required/);
    // Dates relative to today: a fixed start would pass the 366-day bound a year on, and fail every run after.
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const ask = (query: Record<string, string>) =>
      as(
        alice,
        `/statements/transactions?${new URLSearchParams({
          walletId: main.id,
          assetCode: 'USDC',
          startDate: inDays(-30),
          endDate: inDays(0),
          ...query,
        })}`,
      );
    assertFieldError(await ask({ startDate: '01/02/2026' }), 400, 'startDate', /YYYY-MM-DD/);
    assertFieldError(await ask({ startDate: '2026-02-30' }), 400, 'startDate');
    assertFieldError(await ask({ endDate: '2026-01-01T10:00:00' }), 400, 'endDate', /zone/);
    assertFieldError(await ask({ startDate: inDays(-3), endDate: inDays(-4) }), 400, 'startDate', /after/);
    assertFieldError(await ask({ startDate: inDays(-400), endDate: inDays(-33) }), 400, 'endDate', /366/);
    assertFieldError(await ask({ startDate: inDays(1), endDate: inDays(1) }), 400, 'startDate', /future/);
    assertFieldError(await ask({ startDate: inDays(-1), endDate: inDays(2) }), 400, 'endDate', /future/);
    // 366 days exactly is taken; today as a date is not the future.
    assert.equal((await ask({ startDate: inDays(-365), endDate: inDays(0) })).status, 200);
    assertFieldError(await ask({ assetCode: 'NOPE' }), 422, 'assetCode');
    // An asset of the registry the wallet never held: no lines, balances 0.
    const never = await ask({ assetCode: 'EURC', startDate: inDays(-1) });
    assert.equal(never.status, 200, JSON.stringify(never.body));
    assert.deepEqual([never.body.data, never.body.openingBalance, never.body.closingBalance], [[], 0, 0]);
    assertFieldError(await ask({ limit: '0' }), 400, 'limit');
    assertFieldError(await ask({ cursor: 'forged' }), 400, 'cursor');
  });

  it('answers 404 for another business’s wallet, as for a missing one', async () => {
    const bob = await newCaller();
    const query = (walletId: string) =>
      new URLSearchParams({ walletId, assetCode: 'USDC', startDate: yesterday(), endDate: yesterday() });
    const theirs = await as(bob, `/statements/transactions?${query(main.id)}`);
    assertFieldError(theirs, 404, 'walletId');
    const missing = randomUUID();
    const nobody = await as(bob, `/statements/transactions?${query(missing)}`);
    assertFieldError(nobody, 404, 'walletId');
    assert.equal(theirs.body.detail.replace(main.id, missing), nobody.body.detail);
  });
});
