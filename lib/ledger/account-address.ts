// Ledger account addresses checked without the Stellar SDK, as SEP-23 (strkey) defines them: RFC 4648
// base32 of a version byte, the payload, and a CRC16-XModem checksum (little-endian), with no padding
// and no stray bits. Functions that only validate an address (beneficiaries' CRYPTO destinations) thus
// leave out the SDK's StrKey and its base32 codec (12 KiB of every cold start there); the functions
// that build transactions keep the SDK. test/unit/account-address.test.ts holds it to the SDK's answers.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Version bytes (SEP-23): ed25519 public key `G…`, muxed account `M…`. */
const ED25519_PUBLIC_KEY = 6 << 3;
const MED25519_PUBLIC_KEY = 12 << 3;

/** The decoded bytes, or undefined when `text` is not canonical unpadded base32. */
function base32Decode(text: string): Uint8Array | undefined {
  const bytes = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const char of text) {
    const value = VALUE.get(char);
    if (value === undefined) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits must be zero, or two texts would name one address.
  return (buffer & ((1 << bits) - 1)) === 0 ? bytes : undefined;
}

function crc16XModem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

function isStrKey(text: string, version: number, payloadBytes: number, length: number): boolean {
  if (text.length !== length) return false;
  const bytes = base32Decode(text);
  if (!bytes || bytes.length !== 1 + payloadBytes + 2 || bytes[0] !== version) return false;
  const body = bytes.subarray(0, 1 + payloadBytes);
  const crc = crc16XModem(body);
  return bytes[1 + payloadBytes] === (crc & 0xff) && bytes[2 + payloadBytes] === crc >> 8;
}

/** A `G…` account address (an ed25519 public key). */
export const isAccountAddress = (text: string): boolean => isStrKey(text, ED25519_PUBLIC_KEY, 32, 56);

/** An `M…` muxed account address (an ed25519 public key and a 64-bit id). */
export const isMuxedAccountAddress = (text: string): boolean => isStrKey(text, MED25519_PUBLIC_KEY, 40, 69);
