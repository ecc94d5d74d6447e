import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import { openWithKey, type SealedSecret, sealWithKey } from '../../lib/ledger/custody.ts';
import { CustodyError } from '../../lib/ledger/errors.ts';
import { parseKekRing, UnknownKidError } from '../../lib/secret-box.ts';

const kek = randomBytes(32);
const flip = (b64: string) => {
  const bytes = Buffer.from(b64, 'base64');
  bytes[0] = (bytes[0] ?? 0) ^ 0x01;
  return bytes.toString('base64');
};

describe('ledger key custody', () => {
  it('seals and opens a keypair (round trip), without the secret in the sealed form', () => {
    const keypair = Keypair.random();
    const sealed = sealWithKey(kek, keypair);
    assert.equal(sealed.v, 1);
    assert.equal(sealed.kid, 'k1');
    assert.equal(Buffer.from(sealed.iv, 'base64').length, 12);
    assert.equal(Buffer.from(sealed.tag, 'base64').length, 16);
    assert.ok(!JSON.stringify(sealed).includes(keypair.secret()));
    const opened = openWithKey(kek, keypair.publicKey(), sealed);
    assert.equal(opened.publicKey(), keypair.publicKey());
    assert.equal(opened.secret(), keypair.secret());
    // Sealing does not damage the keypair it was given (its seed is held by reference).
    assert.ok(keypair.canSign());
    assert.equal(Keypair.fromSecret(keypair.secret()).publicKey(), keypair.publicKey());
  });

  it('uses a fresh IV each time', () => {
    const keypair = Keypair.random();
    const a = sealWithKey(kek, keypair);
    const b = sealWithKey(kek, keypair);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.ct, b.ct);
  });

  it('refuses a tampered ciphertext, tag or IV', () => {
    const keypair = Keypair.random();
    const sealed = sealWithKey(kek, keypair);
    for (const member of ['ct', 'tag', 'iv'] as const) {
      const tampered: SealedSecret = { ...sealed, [member]: flip(sealed[member]) };
      assert.throws(() => openWithKey(kek, keypair.publicKey(), tampered), CustodyError);
    }
    assert.throws(() => openWithKey(kek, keypair.publicKey(), { ...sealed, v: 2 as 1 }), CustodyError);
  });

  it('refuses a sealed secret presented for another account (the public key is the AAD)', () => {
    const keypair = Keypair.random();
    const other = Keypair.random();
    const sealed = sealWithKey(kek, keypair);
    assert.throws(
      () => openWithKey(kek, other.publicKey(), sealed),
      (error: unknown) => {
        assert.ok(error instanceof CustodyError);
        assert.ok(!error.message.includes(keypair.secret()));
        return true;
      },
    );
  });

  it('refuses under another key-encryption key', () => {
    const keypair = Keypair.random();
    const sealed = sealWithKey(kek, keypair);
    assert.throws(() => openWithKey(randomBytes(32), keypair.publicKey(), sealed), CustodyError);
    assert.throws(() => sealWithKey(randomBytes(16), keypair), CustodyError);
  });
});

describe('KEK rings and key ids', () => {
  const ringOf = (...kids: string[]) =>
    parseKekRing({
      current: kids.at(-1),
      keys: kids.map((kid) => ({ kid, key: randomBytes(32).toString('base64') })),
    });

  it('seals with the current key and names it; opens with the key the sealed value names', () => {
    const before = ringOf('k1');
    const keypair = Keypair.random();
    const sealed = sealWithKey(before, keypair);
    assert.equal(sealed.kid, 'k1');
    const after = parseKekRing({
      current: 'k2',
      keys: [
        { kid: 'k1', key: before.current.key.toString('base64') },
        { kid: 'k2', key: randomBytes(32).toString('base64') },
      ],
    });
    assert.equal(openWithKey(after, keypair.publicKey(), sealed).publicKey(), keypair.publicKey());
    assert.equal(sealWithKey(after, keypair).kid, 'k2');
  });

  it('opens a value sealed before key ids (no kid) with the first key, the legacy {key} secret included', () => {
    const key = randomBytes(32);
    const keypair = Keypair.random();
    const { kid: _kid, ...legacy } = sealWithKey(key, keypair);
    const legacySecret = parseKekRing({ key: key.toString('base64') });
    assert.equal(openWithKey(legacySecret, keypair.publicKey(), legacy).publicKey(), keypair.publicKey());
    const grown = parseKekRing({
      current: 'k2',
      keys: [
        { kid: 'k1', key: key.toString('base64') },
        { kid: 'k2', key: randomBytes(32).toString('base64') },
      ],
    });
    assert.equal(openWithKey(grown, keypair.publicKey(), legacy).publicKey(), keypair.publicKey());
  });

  it('says which key is missing when a sealed value names a kid the ring lacks', () => {
    const keypair = Keypair.random();
    const sealed = sealWithKey(ringOf('k1', 'k7'), keypair);
    assert.throws(() => openWithKey(ringOf('k1'), keypair.publicKey(), sealed), UnknownKidError);
  });

  it('another environment’s ring does not open (one KEK per environment)', () => {
    const keypair = Keypair.random();
    const sandbox = ringOf('k1');
    const production = ringOf('k1');
    assert.throws(
      () => openWithKey(production, keypair.publicKey(), sealWithKey(sandbox, keypair)),
      CustodyError,
    );
  });
});
