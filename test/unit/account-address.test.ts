// The SDK-free address check (lib/ledger/account-address.ts) answers as the SDK's StrKey does, for real
// addresses and for every way one can be wrong: a changed or dropped character, lower case, another
// version byte, stray trailing bits, other alphabets.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Keypair, MuxedAccount, StrKey } from '@stellar/stellar-sdk';
import { describe, it } from 'vitest';
import { isAccountAddress, isMuxedAccountAddress } from '../../lib/ledger/account-address.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Variants of an address: each character changed, dropped or doubled, case lowered, cut or extended. */
function variants(address: string): string[] {
  const out = [address.toLowerCase(), address.slice(1), `${address}A`, address.slice(0, -1), ` ${address}`];
  for (let i = 0; i < address.length; i++) {
    const other = ALPHABET[(ALPHABET.indexOf(address[i] ?? 'A') + 1 + (i % 31)) % 32];
    out.push(address.slice(0, i) + other + address.slice(i + 1));
    out.push(address.slice(0, i) + address.slice(i + 1));
  }
  // The last character's low bits fall outside the payload of an M… address: set them.
  const last = ALPHABET.indexOf(address.at(-1) ?? 'A');
  for (const bit of [1, 2, 4, 8, 16]) out.push(address.slice(0, -1) + ALPHABET[last ^ bit]);
  return out;
}

describe('account addresses without the SDK', () => {
  const accounts = Array.from({ length: 200 }, () => Keypair.random().publicKey());
  const muxed = accounts.map((g, i) =>
    new MuxedAccount(
      { accountId: () => g, sequenceNumber: () => '0', incrementSequenceNumber: () => {} } as never,
      String(BigInt(`0x${randomBytes(8).toString('hex')}`) >> BigInt(i % 64)),
    ).accountId(),
  );
  const others = [
    '',
    'G',
    Keypair.random().secret(),
    StrKey.encodePreAuthTx(randomBytes(32)),
    StrKey.encodeSha256Hash(randomBytes(32)),
    'GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'G0000000000000000000000000000000000000000000000000000000',
    'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7é',
  ];
  const inputs = [
    ...accounts,
    ...muxed,
    ...others,
    ...[...accounts, ...muxed].slice(0, 40).flatMap(variants),
  ];

  it('knows a G… address exactly when StrKey does', () => {
    for (const text of inputs)
      assert.equal(isAccountAddress(text), StrKey.isValidEd25519PublicKey(text), text);
    assert.ok(accounts.every(isAccountAddress));
  });

  it('knows an M… address exactly when StrKey does', () => {
    for (const text of inputs)
      assert.equal(isMuxedAccountAddress(text), StrKey.isValidMed25519PublicKey(text), text);
    assert.ok(muxed.every(isMuxedAccountAddress));
  });
});
