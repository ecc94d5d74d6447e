// The contract's compliance vocabularies as data: `GET /payments/enums` returns them as they stand,
// connector requirements name them (`vocabulary`), and payment submissions will accept only their codes.
// idTypes are the codes wallets' FICA metadata and beneficiaries already take.

export interface VocabularyEntry {
  code: string;
  label: string;
}

export const vocabularies = {
  purposeOfRemittance: [
    { code: 'FAMILY_SUPPORT', label: 'Family support' },
    { code: 'EDUCATION', label: 'Education and school fees' },
    { code: 'MEDICAL', label: 'Medical expenses' },
    { code: 'GOODS_PURCHASE', label: 'Payment for goods' },
    { code: 'SERVICES_PAYMENT', label: 'Payment for services' },
    { code: 'SALARY', label: 'Salary or wages' },
    { code: 'RENT', label: 'Rent' },
    { code: 'LOAN_REPAYMENT', label: 'Loan repayment' },
    { code: 'INVESTMENT', label: 'Investment' },
    { code: 'TRAVEL', label: 'Travel' },
    { code: 'GIFT', label: 'Gift or donation' },
    { code: 'OWN_ACCOUNT_TRANSFER', label: 'Transfer to own account' },
    { code: 'OTHER', label: 'Other' },
  ],
  sourceOfFunds: [
    { code: 'SALARY', label: 'Salary or wages' },
    { code: 'BUSINESS_INCOME', label: 'Business income' },
    { code: 'SAVINGS', label: 'Savings' },
    { code: 'INVESTMENT_RETURNS', label: 'Investment returns' },
    { code: 'PENSION', label: 'Pension' },
    { code: 'LOAN', label: 'Loan' },
    { code: 'GIFT', label: 'Gift' },
    { code: 'INHERITANCE', label: 'Inheritance' },
    { code: 'SALE_OF_ASSETS', label: 'Sale of property or assets' },
    { code: 'OTHER', label: 'Other' },
  ],
  idTypes: [
    { code: 'NATIONAL_ID', label: 'National identity card' },
    { code: 'PASSPORT', label: 'Passport' },
    { code: 'DRIVERS_LICENSE', label: "Driver's licence" },
  ],
} as const satisfies Record<string, readonly VocabularyEntry[]>;

export type VocabularyName = keyof typeof vocabularies;
export const VOCABULARY_NAMES = Object.keys(vocabularies) as [VocabularyName, ...VocabularyName[]];
