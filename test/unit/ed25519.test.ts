import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Account, Keypair, Networks, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import { NativeKeypair, publicKeyObject, verifySignature } from '../../lib/ledger/ed25519.ts';
import { SignatureChecker } from '../../local/ledger/validation.ts';

const KEYS = 200;
const flipped = (bytes: Uint8Array, index: number) => {
  const copy = Uint8Array.from(bytes);
  copy[index] = (copy[index] ?? 0) ^ 0x01;
  return copy;
};

describe('native ed25519 against the SDK', () => {
  it('derives the same public keys and signs byte-identically, for many keys and messages', () => {
    for (let i = 0; i < KEYS; i += 1) {
      const seed = randomBytes(32);
      const sdk = Keypair.fromRawEd25519Seed(seed);
      const native = NativeKeypair.fromSeed(seed);
      assert.equal(native.publicKey(), sdk.publicKey());
      assert.equal(native.secret(), sdk.secret());
      assert.deepEqual(Buffer.from(native.signatureHint()), Buffer.from(sdk.signatureHint()));
      // Empty, transaction-hash sized and odd-sized messages.
      for (const message of [new Uint8Array(0), randomBytes(32), randomBytes(1 + (i % 300))]) {
        const signature = native.sign(message);
        assert.deepEqual(Buffer.from(signature), Buffer.from(sdk.sign(message)));
        assert.ok(sdk.verify(message, signature));
        assert.ok(native.verify(message, sdk.sign(message)));
      }
    }
  });

  it('rejects what the SDK rejects: a tampered signature or message, another key, a wrong length', () => {
    for (let i = 0; i < KEYS; i += 1) {
      const sdk = Keypair.random();
      const native = NativeKeypair.fromSeed(sdk.rawSecretKey());
      const other = publicKeyObject(Keypair.random().rawPublicKey());
      const message = randomBytes(32);
      const signature = sdk.sign(message);
      const bad = flipped(signature, i % 64);
      assert.equal(sdk.verify(message, bad), false);
      assert.equal(native.verify(message, bad), false);
      assert.equal(native.verify(flipped(message, i % 32), signature), false);
      assert.equal(verifySignature(other, message, signature), false);
      assert.equal(
        verifySignature(publicKeyObject(sdk.rawPublicKey()), message, signature.subarray(0, 63)),
        false,
      );
    }
  });

  it('signs a transaction envelope byte-identically to the SDK Keypair', () => {
    const seed = randomBytes(32);
    const build = () =>
      new TransactionBuilder(new Account(Keypair.fromRawEd25519Seed(seed).publicKey(), '41'), {
        fee: '100',
        networkPassphrase: Networks.TESTNET,
        timebounds: { minTime: 1, maxTime: 2 },
      })
        .addOperation(Operation.bumpSequence({ bumpTo: '42' }))
        .build();
    const bySdk = build();
    bySdk.sign(Keypair.fromRawEd25519Seed(seed));
    const byNative = build();
    byNative.sign(NativeKeypair.fromSeed(seed));
    assert.equal(byNative.toEnvelope().toXDR('base64'), bySdk.toEnvelope().toXDR('base64'));
  });

  it("the local ledger's signature check accepts a good signature and refuses a bad one", () => {
    const signer = Keypair.random();
    const hash = randomBytes(32);
    const good = signer.signDecorated(hash);
    assert.ok(
      new SignatureChecker(hash.toString('hex'), [good]).check([{ key: signer.publicKey(), weight: 1 }], 1),
    );
    const bad = NativeKeypair.fromSeed(signer.rawSecretKey()).signDecorated(randomBytes(32));
    assert.equal(
      new SignatureChecker(hash.toString('hex'), [bad]).check([{ key: signer.publicKey(), weight: 1 }], 1),
      false,
    );
  });
});
