// Payment destinations through the real local gateway: BANK, MOBILE_MONEY and CRYPTO, masking, the
// method filter, pagination, tenant isolation, and verification by the sandbox helper and the admin CLI.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Account, Keypair, MuxedAccount } from '@stellar/stellar-sdk';
import { beforeAll, describe, it } from 'vitest';
import {
  type ApiResponse,
  as,
  assertAnsweredAsMissing,
  assertFieldError,
  type Caller,
  newCaller,
} from '../support/api.ts';

const run = promisify(execFile);

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env });
  return JSON.parse(stdout);
}

const bank = {
  method: 'BANK',
  countryIsoCode2: 'za',
  currencyIsoCode3: 'zar',
  accountNumber: '1234 56789',
  bankCode: '250-655',
  accountHolderName: 'Thandi Nkosi',
  bankName: 'First National Bank',
  accountType: 'CHEQUE',
};
const momo = {
  method: 'MOBILE_MONEY',
  countryIsoCode2: 'KE',
  currencyIsoCode3: 'KES',
  mobileNumber: '+254712345678',
  provider: 'mpesa',
  verifyAsMe: true,
};
const walletAddress = Keypair.random().publicKey();
const crypto_ = {
  method: 'CRYPTO',
  countryIsoCode2: 'ZA',
  currencyIsoCode3: 'USD',
  networkName: 'stellar-testnet',
  assetSymbol: 'usdc',
  walletAddress,
};

const newBeneficiary = async (caller: Caller): Promise<string> => {
  const created = await as(caller, '/beneficiaries', {
    method: 'POST',
    body: { individual: { firstName: 'Thandi', lastName: 'Nkosi' } },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
};

const addDestination = (caller: Caller, beneficiaryId: string, body: unknown) =>
  as(caller, `/beneficiaries/${beneficiaryId}/payment-destinations`, { method: 'POST', body });

const verify = (caller: Caller, destinationId: string, decision: string) =>
  as(caller, `/sandbox/payment-destinations/${destinationId}/verification`, {
    method: 'POST',
    body: { decision },
  });

describe('payment destinations', () => {
  let alice: Caller;
  let bob: Caller;
  let beneficiaryId: string;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
    beneficiaryId = await newBeneficiary(alice);
  });

  it('adds a BANK destination: 201, PENDING, masked account number, country name and region', async () => {
    const created = await addDestination(alice, beneficiaryId, bank);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const d = created.body;
    assert.match(d.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...d, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        beneficiaryId,
        method: 'BANK',
        countryIso: 'ZA',
        countryName: 'South Africa',
        currencyCode: 'ZAR',
        region: 'Africa',
        accountNumber: '******6789',
        bankCode: '250655',
        accountHolderName: 'Thandi Nkosi',
        bankName: 'First National Bank',
        accountType: 'CHEQUE',
        verificationStatus: 'PENDING',
        verifyAsMe: false,
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    const read = await as(alice, `/beneficiaries/${beneficiaryId}/payment-destinations/${d.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, d);
    // UUIDs are case-insensitive: the same destination, and the same beneficiary, in upper case.
    const upper = `/beneficiaries/${beneficiaryId.toUpperCase()}/payment-destinations/${d.id.toUpperCase()}`;
    assert.deepEqual((await as(alice, upper)).body, d);
    assert.equal((await as(alice, `/beneficiaries/${beneficiaryId.toUpperCase()}`)).body.id, beneficiaryId);
    const nested = await as(alice, `/beneficiaries/${beneficiaryId}`);
    assert.deepEqual(
      nested.body.paymentDestinations.find((p: { id: string }) => p.id === d.id),
      d,
    );
    for (const response of [created, read, nested])
      assert.ok(!JSON.stringify(response.body).includes('123456789'));
  });

  it('adds a MOBILE_MONEY destination with a masked number and an upper-cased provider', async () => {
    const created = await addDestination(alice, beneficiaryId, momo);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.method, 'MOBILE_MONEY');
    assert.equal(created.body.mobileNumber, '******5678');
    assert.equal(created.body.provider, 'MPESA');
    assert.equal(created.body.countryIso, 'KE');
    assert.equal(created.body.countryName, 'Kenya');
    assert.equal(created.body.currencyCode, 'KES');
    assert.equal(created.body.region, 'Africa');
    assert.equal(created.body.verificationStatus, 'PENDING');
    assert.equal(created.body.verifyAsMe, true);
    assert.ok(!JSON.stringify(created.body).includes('712345678'));
  });

  it('adds CRYPTO destinations: NOT_REQUIRED, wallet address in full, muxed accounts too', async () => {
    const created = await addDestination(alice, beneficiaryId, crypto_);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.verificationStatus, 'NOT_REQUIRED');
    assert.equal(created.body.walletAddress, walletAddress);
    assert.equal(created.body.networkName, 'stellar-testnet');
    assert.equal(created.body.assetSymbol, 'USDC');
    assert.equal(created.body.currencyCode, 'USD');
    assert.equal(created.body.accountNumber, undefined);

    const muxed = new MuxedAccount(new Account(walletAddress, '0'), '42').accountId();
    assert.match(muxed, /^M/);
    const viaMuxed = await addDestination(alice, beneficiaryId, {
      ...crypto_,
      walletAddress: muxed,
      networkName: 'STELLAR-TESTNET',
      countryIsoCode2: 'gb',
      currencyIsoCode3: 'gbp',
    });
    assert.equal(viaMuxed.status, 201, JSON.stringify(viaMuxed.body));
    assert.equal(viaMuxed.body.walletAddress, muxed);
    assert.equal(viaMuxed.body.region, 'Europe');
    assert.equal(viaMuxed.body.countryName, 'United Kingdom');
  });

  it('applies per-country bank rules and shape rules with 400 naming the field, writing nothing', async () => {
    const id = await newBeneficiary(alice);
    const cases: [unknown, string][] = [
      [{ ...bank, method: undefined }, 'method'],
      [{ ...bank, method: 'CASH' }, 'method'],
      [{ ...crypto_, networkId: 'n1' }, 'networkId'],
      [{ ...crypto_, assetId: 'a1' }, 'assetId'],
      [{ ...crypto_, connectorId: 'c1' }, 'connectorId'],
      [{ ...bank, walletAddress }, 'walletAddress'],
      [{ ...bank, countryIsoCode2: 'ZAF' }, 'countryIsoCode2'],
      [{ ...bank, countryIsoCode2: undefined }, 'countryIsoCode2'],
      [{ ...bank, currencyIsoCode3: 'RAND' }, 'currencyIsoCode3'],
      [{ ...bank, verifyAsMe: 'yes' }, 'verifyAsMe'],
      [{ ...bank, accountHolderName: undefined }, 'accountHolderName'],
      [{ ...bank, accountType: 'PIGGY' }, 'accountType'],
      // ZA: 9-11 digit account, 6-digit branch code
      [{ ...bank, accountNumber: '12345678' }, 'accountNumber'],
      [{ ...bank, accountNumber: '123456789012' }, 'accountNumber'],
      [{ ...bank, accountNumber: '12345678A' }, 'accountNumber'],
      [{ ...bank, bankCode: '25065' }, 'bankCode'],
      // KE: 10-14 digits
      [
        {
          ...bank,
          countryIsoCode2: 'KE',
          currencyIsoCode3: 'KES',
          accountNumber: '123456789',
          bankCode: '01',
        },
        'accountNumber',
      ],
      // NG: 10-digit NUBAN, 3-digit bank code
      [{ ...bank, countryIsoCode2: 'NG', accountNumber: '01234567891', bankCode: '058' }, 'accountNumber'],
      [{ ...bank, countryIsoCode2: 'NG', accountNumber: '0123456789', bankCode: '0581' }, 'bankCode'],
      // GB: 8-digit account, 6-digit sort code
      [{ ...bank, countryIsoCode2: 'GB', accountNumber: '1234567', bankCode: '12-34-56' }, 'accountNumber'],
      [{ ...bank, countryIsoCode2: 'GB', accountNumber: '12345678', bankCode: '12-34-5' }, 'bankCode'],
      // default: 4-34 letters or digits
      [{ ...bank, countryIsoCode2: 'FR', accountNumber: 'FR1', bankCode: 'BNPAFRPP' }, 'accountNumber'],
      [
        { ...bank, countryIsoCode2: 'FR', accountNumber: 'FR7630006000011234567890189', bankCode: 'B' },
        'bankCode',
      ],
      [{ ...momo, mobileNumber: '0712345678' }, 'mobileNumber'],
      [{ ...momo, mobileNumber: '+2547' }, 'mobileNumber'],
      [{ ...momo, provider: 'M' }, 'provider'],
      [{ ...momo, provider: 'M'.repeat(31) }, 'provider'],
      [{ ...momo, provider: undefined }, 'provider'],
      [{ ...crypto_, walletAddress: 'GABC' }, 'walletAddress'],
      [
        { ...crypto_, walletAddress: walletAddress.replace(/.$/, walletAddress.endsWith('A') ? 'B' : 'A') },
        'walletAddress',
      ],
      [{ ...crypto_, walletAddress: Keypair.random().secret() }, 'walletAddress'],
      [{ ...crypto_, networkName: undefined }, 'networkName'],
      [{ ...crypto_, assetSymbol: 'US-DC' }, 'assetSymbol'],
    ];
    for (const [body, field] of cases) assertFieldError(await addDestination(alice, id, body), 400, field);
    assertFieldError(await addDestination(alice, id, '{"method":'), 400, 'body');
    assert.deepEqual((await as(alice, `/beneficiaries/${id}`)).body.paymentDestinations, []);

    // The same rules accept well-formed values of each country.
    for (const body of [
      {
        ...bank,
        countryIsoCode2: 'KE',
        currencyIsoCode3: 'KES',
        accountNumber: '1234567890',
        bankCode: '01',
      },
      {
        ...bank,
        countryIsoCode2: 'NG',
        currencyIsoCode3: 'NGN',
        accountNumber: '0123456789',
        bankCode: '058',
      },
      {
        ...bank,
        countryIsoCode2: 'GB',
        currencyIsoCode3: 'GBP',
        accountNumber: '12345678',
        bankCode: '12-34-56',
      },
      {
        ...bank,
        countryIsoCode2: 'FR',
        currencyIsoCode3: 'EUR',
        accountNumber: 'FR7630006000011234567890189',
        bankCode: 'BNPAFRPP',
      },
    ]) {
      const created = await addDestination(alice, id, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.match(created.body.accountNumber, /^\*{6}.{4}$/);
    }
  });

  it('refuses well-formed values that name nothing with 422', async () => {
    const id = await newBeneficiary(alice);
    assertFieldError(
      await addDestination(alice, id, { ...bank, countryIsoCode2: 'XX' }),
      422,
      'countryIsoCode2',
    );
    assertFieldError(
      await addDestination(alice, id, { ...bank, currencyIsoCode3: 'XYZ' }),
      422,
      'currencyIsoCode3',
    );
    // A valid South African number is not a Kenyan mobile-money number.
    assertFieldError(
      await addDestination(alice, id, { ...momo, mobileNumber: '+27821234567' }),
      422,
      'mobileNumber',
    );
    assertFieldError(
      await addDestination(alice, id, { ...crypto_, networkName: 'stellar-pubnet' }),
      422,
      'networkName',
    );
    assertFieldError(
      await addDestination(alice, id, { ...crypto_, assetSymbol: 'DOGE' }),
      422,
      'assetSymbol',
    );
    assert.deepEqual((await as(alice, `/beneficiaries/${id}`)).body.paymentDestinations, []);
  });

  it('filters by method (MOMO is MOBILE_MONEY, any case) and pages with cursors bound to beneficiary and filter', async () => {
    const id = await newBeneficiary(alice);
    for (const body of [bank, { ...bank, accountNumber: '987654321' }, momo, crypto_]) {
      assert.equal((await addDestination(alice, id, body)).status, 201);
    }
    const list = (query: string) => as(alice, `/beneficiaries/${id}/payment-destinations${query}`);
    const methods = async (query: string) =>
      (await list(query)).body.data.map((d: { method: string }) => d.method).sort();
    assert.deepEqual(await methods(''), ['BANK', 'BANK', 'CRYPTO', 'MOBILE_MONEY']);
    assert.deepEqual(await methods('?method=BANK'), ['BANK', 'BANK']);
    assert.deepEqual(await methods('?method=bank'), ['BANK', 'BANK']);
    assert.deepEqual(await methods('?method=MOMO'), ['MOBILE_MONEY']);
    assert.deepEqual(await methods('?method=momo'), ['MOBILE_MONEY']);
    assert.deepEqual(await methods('?method=MOBILE_MONEY'), ['MOBILE_MONEY']);
    assert.deepEqual(await methods('?method=Crypto'), ['CRYPTO']);
    assertFieldError(await list('?method=CASH'), 400, 'method');
    assertFieldError(await list('?method='), 400, 'method');
    assertFieldError(await list('?limit=0'), 400, 'limit');
    assertFieldError(await list('?colour=red'), 400, 'colour');
    const all = await list('');
    assert.ok(
      all.body.data.every(
        (d: { accountNumber?: string }) => !d.accountNumber || d.accountNumber.startsWith('******'),
      ),
    );

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ApiResponse = await list(
        `?method=BANK&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(page.status, 200);
      assert.equal(page.body.data.length, 1);
      seen.push(page.body.data[0].accountNumber);
      cursor = page.body.pagination.nextCursor;
      pages += 1;
    } while (cursor);
    assert.equal(pages, 2);
    assert.deepEqual(seen.sort(), ['******4321', '******6789']);

    const first = await list('?method=BANK&limit=1');
    const next = encodeURIComponent(first.body.pagination.nextCursor);
    assert.equal(first.body.pagination.hasMore, true);
    assertFieldError(await list(`?method=CRYPTO&limit=1&cursor=${next}`), 400, 'cursor');
    assertFieldError(await list(`?limit=1&cursor=${next}`), 400, 'cursor');
    assertFieldError(
      await as(
        alice,
        `/beneficiaries/${beneficiaryId}/payment-destinations?method=BANK&limit=1&cursor=${next}`,
      ),
      400,
      'cursor',
    );
  });

  it('answers other tenants’ and other beneficiaries’ ids as missing, and non-UUID ids with 400', async () => {
    const created = await addDestination(alice, beneficiaryId, bank);
    const destinationId = created.body.id;
    const base = `/beneficiaries/${beneficiaryId}/payment-destinations`;
    const unknown = crypto.randomUUID();
    const theirs = await as(bob, `${base}/${destinationId}`);
    const missing = await as(bob, `${base}/${unknown}`);
    assertAnsweredAsMissing(theirs, destinationId, missing, unknown);
    assert.equal((await as(bob, base)).status, 404);
    assert.equal((await addDestination(bob, beneficiaryId, bank)).status, 404);
    assert.equal((await addDestination(alice, crypto.randomUUID(), bank)).status, 404);
    assert.equal((await as(alice, `/beneficiaries/${crypto.randomUUID()}/payment-destinations`)).status, 404);

    const sibling = await newBeneficiary(alice);
    assert.equal(
      (await as(alice, `/beneficiaries/${sibling}/payment-destinations/${destinationId}`)).status,
      404,
    );
    assert.equal((await as(alice, `/beneficiaries/${sibling}/payment-destinations`)).body.data.length, 0);

    assertFieldError(await as(alice, `${base}/not-a-uuid`), 400, 'destinationId');
    assertFieldError(await as(alice, `/beneficiaries/nope/payment-destinations`), 400, 'beneficiaryId');
    assertFieldError(await addDestination(alice, 'nope', bank), 400, 'beneficiaryId');
  });

  it('settles verification once through the sandbox helper; CRYPTO needs none', async () => {
    const id = await newBeneficiary(alice);
    const bankDestination = (await addDestination(alice, id, bank)).body.id;
    const approved = await verify(alice, bankDestination, 'APPROVED');
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.verificationStatus, 'APPROVED');
    assert.equal(approved.body.accountNumber, '******6789');
    const read = await as(alice, `/beneficiaries/${id}/payment-destinations/${bankDestination}`);
    assert.equal(read.body.verificationStatus, 'APPROVED');
    assert.equal((await verify(alice, bankDestination, 'REJECTED')).status, 409);
    assert.equal((await verify(alice, bankDestination, 'APPROVED')).status, 409);
    assert.equal(
      (await as(alice, `/beneficiaries/${id}/payment-destinations/${bankDestination}`)).body
        .verificationStatus,
      'APPROVED',
    );

    const momoDestination = (await addDestination(alice, id, momo)).body.id;
    assertFieldError(await verify(alice, momoDestination, 'MAYBE'), 400, 'decision');
    assertFieldError(await verify(alice, momoDestination, 'approved'), 400, 'decision');
    assert.equal((await verify(bob, momoDestination, 'APPROVED')).status, 404);
    const rejected = await verify(alice, momoDestination, 'REJECTED');
    assert.equal(rejected.status, 200);
    assert.equal(rejected.body.verificationStatus, 'REJECTED');

    const cryptoDestination = (await addDestination(alice, id, crypto_)).body.id;
    assert.equal((await verify(alice, cryptoDestination, 'APPROVED')).status, 409);
    assert.equal(
      (await as(alice, `/beneficiaries/${id}/payment-destinations/${cryptoDestination}`)).body
        .verificationStatus,
      'NOT_REQUIRED',
    );
    assert.equal((await verify(alice, crypto.randomUUID(), 'APPROVED')).status, 404);
    assertFieldError(await verify(alice, 'not-a-uuid', 'APPROVED'), 400, 'destinationId');
  });

  it('hides the sandbox helper from production applications', async () => {
    const production = await newCaller({ environment: 'production' });
    const id = await newBeneficiary(production);
    const created = await addDestination(production, id, bank);
    assert.equal(created.status, 201);
    const response = await verify(production, created.body.id, 'APPROVED');
    assert.equal(response.status, 404);
    assert.equal(
      (await as(production, `/beneficiaries/${id}/payment-destinations/${created.body.id}`)).body
        .verificationStatus,
      'PENDING',
    );
    // Production's registry is on the public network.
    assertFieldError(await addDestination(production, id, crypto_), 422, 'networkName');
    const pubnet = await addDestination(production, id, { ...crypto_, networkName: 'stellar-pubnet' });
    assert.equal(pubnet.status, 201, JSON.stringify(pubnet.body));
  });

  it('lets platform operations decide verification once with the admin CLI', async () => {
    const id = await newBeneficiary(alice);
    const destinationId = (await addDestination(alice, id, bank)).body.id;
    const reviewed = await admin(
      'destination',
      'review',
      '--destination',
      destinationId,
      '--decision',
      'REJECTED',
    );
    assert.deepEqual(reviewed, {
      destinationId,
      beneficiaryId: id,
      method: 'BANK',
      verificationStatus: 'REJECTED',
    });
    const read = await as(alice, `/beneficiaries/${id}/payment-destinations/${destinationId}`);
    assert.equal(read.body.verificationStatus, 'REJECTED');
    await assert.rejects(
      admin('destination', 'review', '--destination', destinationId, '--decision', 'APPROVED'),
      /already ended/,
    );
    const cryptoDestination = (await addDestination(alice, id, crypto_)).body.id;
    await assert.rejects(
      admin('destination', 'review', '--destination', cryptoDestination, '--decision', 'APPROVED'),
      /needs no verification/,
    );
    await assert.rejects(
      admin('destination', 'review', '--destination', crypto.randomUUID(), '--decision', 'APPROVED'),
      /No payment destination/,
    );
    await assert.rejects(
      admin('destination', 'review', '--destination', destinationId, '--decision', 'Verified'),
      /--decision must be APPROVED or REJECTED/,
    );
    const { stdout } = await run(process.execPath, ['scripts/admin.ts', '--help']);
    assert.ok(stdout.includes('destination review'));
  });
});
