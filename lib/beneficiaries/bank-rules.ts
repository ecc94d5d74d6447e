// Per-country rules for BANK destinations, kept as data: add a country by adding a row. Values are
// checked after spaces and hyphens are removed (`12-34-56` is the sort code 123456).

export interface FieldRule {
  pattern: RegExp;
  /** Completes "must be …" in the field error. */
  rule: string;
}

export interface BankRule {
  accountNumber: FieldRule;
  /** The bank or branch code the country routes on. */
  bankCode: FieldRule;
}

const digits = (min: number, max: number, what: string): FieldRule => ({
  pattern: new RegExp(`^\\d{${min},${max}}$`),
  rule: min === max ? `${min} digits (${what})` : `${min} to ${max} digits (${what})`,
});

export const bankRules: Readonly<Record<string, BankRule>> = {
  ZA: { accountNumber: digits(9, 11, 'account number'), bankCode: digits(6, 6, 'branch code') },
  KE: {
    accountNumber: digits(10, 14, 'account number'),
    bankCode: digits(2, 5, 'bank or bank-and-branch code'),
  },
  NG: { accountNumber: digits(10, 10, 'NUBAN'), bankCode: digits(3, 3, 'CBN bank code') },
  GB: { accountNumber: digits(8, 8, 'account number'), bankCode: digits(6, 6, 'sort code') },
};

/** Countries without a row: an IBAN-sized alphanumeric account and a bank, branch or SWIFT/BIC code. */
export const defaultBankRule: BankRule = {
  accountNumber: { pattern: /^[A-Za-z0-9]{4,34}$/, rule: '4 to 34 letters or digits' },
  bankCode: {
    pattern: /^[A-Za-z0-9]{2,11}$/,
    rule: '2 to 11 letters or digits (bank, branch or SWIFT code)',
  },
};

export const bankRuleFor = (countryIsoCode2: string): BankRule =>
  bankRules[countryIsoCode2.toUpperCase()] ?? defaultBankRule;
