import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import { openWithKey, type SealedSecret, sealWithKey } from '../../lib/ledger/custody.ts';
import { CustodyError } from '../../lib/ledger/errors.ts';

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
