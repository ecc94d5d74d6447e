// Phone numbers through libphonenumber-js's core functions and our copy of its metadata without the
// formatting rules (phone-metadata.ts): the library's default entry point bundles its whole `min` set.
// Parsing and validation give the same answers with either (test/unit/phone-metadata.test.ts). The
// bundles carry the metadata packed (phone-metadata-packed.ts, 11 KiB instead of 31), unpacked once, on
// the first number read: a cold start that reads none never pays for it.
import { brotliDecompressSync } from 'node:zlib';
import {
  isValidPhoneNumber as isValidWith,
  type MetadataJson,
  type PhoneNumber,
  parsePhoneNumberFromString as parseWith,
} from 'libphonenumber-js/core';
import { packedPhoneMetadata } from './phone-metadata-packed.ts';

let unpacked: MetadataJson | undefined;

/** The metadata of phone-metadata.ts, unpacked from the bundle's copy on first use. */
export function phoneMetadata(): MetadataJson {
  unpacked ??= JSON.parse(brotliDecompressSync(Buffer.from(packedPhoneMetadata, 'base64')).toString('utf8'));
  return unpacked as MetadataJson;
}

/** The number `text` gives (international form, + and calling code), or undefined when it gives none. */
export const parsePhoneNumber = (text: string): PhoneNumber | undefined => parseWith(text, phoneMetadata());

/** True when `text` is a number some country's numbering plan assigns. */
export const isValidPhoneNumber = (text: string): boolean => isValidWith(text, phoneMetadata());
