// Phone numbers through libphonenumber-js's core functions and our copy of its metadata without the
// formatting rules (phone-metadata.ts): the library's default entry point bundles its whole `min` set.
// Parsing and validation give the same answers with either (test/unit/phone-metadata.test.ts).
import {
  isValidPhoneNumber as isValidWith,
  type PhoneNumber,
  parsePhoneNumberFromString as parseWith,
} from 'libphonenumber-js/core';
import { phoneMetadata } from './phone-metadata.ts';

/** The number `text` gives (international form, + and calling code), or undefined when it gives none. */
export const parsePhoneNumber = (text: string): PhoneNumber | undefined => parseWith(text, phoneMetadata);

/** True when `text` is a number some country's numbering plan assigns. */
export const isValidPhoneNumber = (text: string): boolean => isValidWith(text, phoneMetadata);
