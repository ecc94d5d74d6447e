// Request body examples, by operation: at least one for every route that takes a body. A unit test
// parses each with the operation's own body schema, so an example that stops being accepted fails.
import { beneficiaryExample, individualExample } from '../lib/beneficiaries/responses.ts';
import { customerExample } from '../lib/customers/responses.ts';
import type { OperationName } from './operation-docs.ts';

export interface Example {
  summary: string;
  value: unknown;
}

const beneficiaryId = '7d3f1a9c-2b4e-4f6a-8c0d-1e2f3a4b5c6d';
const walletId = '3c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f';
const destinationWalletId = '4d0e9f8a-7b6c-4d5e-9f3a-2b1c0d9e8f7a';
const otherWalletId = '5e1f0a9b-8c7d-4e6f-a04b-3c2d1e0f9a8b';
const stellarAccount = 'GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB';

export const requestExamples: Partial<Record<OperationName, Record<string, Example>>> = {
  requestSignInCode: { email: { summary: 'A team member’s address', value: { email: 'ada@acme.example' } } },
  createPortalSession: {
    code: { summary: 'The code the email gave', value: { email: 'ada@acme.example', code: '04817263' } },
  },
  issuePortalToken: {
    first: { summary: 'The person’s first tenant', value: {} },
    named: {
      summary: 'One tenant by name (the test/live switch)',
      value: { environment: 'sandbox', associationId: '5b0e8f2a-3c1d-4e7a-9f60-2d8b7c4a1e93' },
    },
  },
  addTeamMember: {
    developer: { summary: 'A developer', value: { email: 'grace@acme.example', role: 'developer' } },
  },
  createCredential: {
    apiKey: {
      summary: 'An API key named for where it is used',
      value: { kind: 'apiKey', name: 'CI server' },
    },
    client: { summary: 'A client, unnamed', value: { kind: 'client' } },
  },
  issueToken: {
    credentials: {
      summary: 'Client credentials',
      value: {
        clientId: '2f6d0c1e-8b7a-4c5d-9e3f-1a2b3c4d5e6f',
        clientSecret: 'pgwcs_q8Zr1bT3nV5xK7mP9sL2dF4hJ6wY0cE8aG1iO3uR5tB',
      },
    },
  },
  createWallet: {
    own: {
      summary: 'An own wallet (Verified at once)',
      value: { walletName: 'Treasury', assetCode: 'USDC', ownAccount: true },
    },
    business: {
      summary: 'A third party’s wallet (Pending until KYC)',
      value: {
        walletName: 'Supplier',
        assetCode: 'usdc',
        metadata: {
          entityType: 'Business',
          registeredName: 'Acme Trading',
          registrationNumber: '2019/123456/07',
          registrationCountry: 'KE',
        },
      },
    },
    person: {
      summary: 'A person’s wallet',
      value: {
        walletName: 'Thandi',
        assetCode: 'USDC',
        metadata: {
          entityType: 'Person',
          firstName: 'Thandi',
          lastName: 'Nkosi',
          dateOfBirth: '1990-04-12',
          idType: 'NATIONAL_ID',
          idNumber: '9004120123087',
          nationality: 'ZAF',
        },
      },
    },
  },
  createBeneficiary: {
    individual: {
      summary: 'An individual',
      value: {
        // The response example's person, its ID country in lower case as a caller may send it.
        individual: { ...individualExample, idCountryIsoCode2: 'za' },
        addresses: beneficiaryExample.addresses,
        tags: beneficiaryExample.tags,
      },
    },
    business: {
      summary: 'A business',
      value: {
        business: {
          registeredName: 'Acme Trading',
          registrationNumber: '2019/123456/07',
          countryIsoCode2: 'KE',
        },
      },
    },
  },
  updateBeneficiary: {
    mergePatch: {
      summary: 'Change the mobile, remove the email, replace the tags',
      value: {
        individual: { mobile: '+27829876543', email: null },
        tags: [{ key: 'segment', value: 'retail' }],
      },
    },
  },
  createPaymentDestination: {
    bank: {
      summary: 'A South African bank account',
      value: {
        method: 'BANK',
        countryIsoCode2: 'ZA',
        currencyIsoCode3: 'ZAR',
        accountNumber: '62123456789',
        bankCode: '250655',
        accountHolderName: 'Thandi Nkosi',
        bankName: 'First National Bank',
        accountType: 'CURRENT',
      },
    },
    mobileMoney: {
      summary: 'A Kenyan M-Pesa number',
      value: {
        method: 'MOBILE_MONEY',
        countryIsoCode2: 'KE',
        currencyIsoCode3: 'KES',
        mobileNumber: '+254712345678',
        provider: 'mpesa',
      },
    },
    crypto: {
      summary: 'A Stellar account',
      value: {
        method: 'CRYPTO',
        countryIsoCode2: 'ZA',
        currencyIsoCode3: 'USD',
        networkName: 'stellar-testnet',
        assetSymbol: 'USDC',
        walletAddress: stellarAccount,
      },
    },
  },
  createQuote: {
    forBeneficiary: {
      summary: 'Off-ramp to a beneficiary’s destination (the type is derived)',
      value: {
        amount: 100,
        connectorId: 'za-bank-offramp-usdc-zar',
        beneficiaryId,
        paymentDestinationId: '9a8b7c6d-5e4f-4a3b-9c1d-0e1f2a3b4c5d',
      },
    },
    exploratory: {
      summary: 'Exploratory: a transaction type instead of a beneficiary',
      value: { amount: 250.5, connectorId: 'ke-momo-offramp-usdc-kes', transactionType: 'B2C' },
    },
  },
  payP2pOwn: {
    transfer: {
      summary: '25 USDC between two own wallets',
      value: {
        transactionId: '0b6e7f0a-8c1d-4f3e-9a2b-5c6d7e8f9a0b',
        walletId,
        destinationWalletId,
        sendingAssetCode: 'USDC',
        amount: 25,
        memo: 'March payroll',
        fromRef: 'PAY-0342',
      },
    },
  },
  payP2pOwnMulti: {
    split: {
      summary: 'Two transfers that settle together',
      value: {
        transactionId: '5e2d8c1b-7a6f-4e3d-8c2b-1a0f9e8d7c6b',
        transfers: [
          { walletId, destinationWalletId, sendingAssetCode: 'USDC', amount: 10 },
          { walletId, destinationWalletId: otherWalletId, sendingAssetCode: 'USDC', amount: 15.5 },
        ],
        fromRef: 'SPLIT-7',
      },
    },
  },
  payOfframp: {
    bank: {
      summary: 'A payout to a South African bank account, against an off-ramp quote',
      value: {
        transactionId: '4d3c2b1a-0f9e-4d8c-b7a6-958473625140',
        walletId,
        beneficiaryId,
        paymentDestinationId: '5e4d3c2b-1a0f-4e9d-8c7b-a69584736251',
        quoteId: '6f5e4d3c-2b1a-4f0e-9d8c-7ba695847362',
        sendingAssetCode: 'USDC',
        purpose: 'FAMILY_SUPPORT',
        sourceOfFunds: 'SALARY',
        toRef: 'INV-2041',
      },
    },
  },
  payOnramp: {
    mpesa: {
      summary: 'Collect KES from a Kenyan M-Pesa counterparty into a USDC wallet',
      value: {
        transactionId: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
        walletId,
        senderId: '8b7c6d5e-4f3a-4b2c-8d9e-0f1a2b3c4d5e',
        paymentDestinationId: '9c8d7e6f-5a4b-4c3d-9e0f-1a2b3c4d5e6f',
        quoteId: 'ad9e8f7a-6b5c-4d4e-8f1a-2b3c4d5e6f7a',
        senderSourceOfFunds: 'SALARY',
        senderIdCountryIsoCode: 'KE',
        fromRef: 'TOPUP-17',
      },
    },
  },
  receiveProviderNotification: {
    completed: {
      summary: 'The provider paid the payout out',
      value: {
        notificationId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        kind: 'payout',
        reference: '6f1c2a4e-3b1d-5c8e-9f20-7a3b4c5d6e7f',
        providerReference: 'SIM-3F2A91C0-7B4',
        status: 'completed',
        reason: null,
      },
    },
  },
  payP2pBeneficiary: {
    payout: {
      summary: 'USDC to a beneficiary’s CRYPTO destination, telling them by email',
      value: {
        transactionId: '9c8b7a6f-5e4d-4c3b-a291-0f1e2d3c4b5a',
        walletId,
        beneficiaryId,
        paymentDestinationId: '9a8b7c6d-5e4f-4a3b-9c1d-0e1f2a3b4c5d',
        sendingAssetCode: 'USDC',
        amount: 40,
        toRef: 'INV-2041',
        notifyEmail: true,
      },
    },
  },
  paySwapOwn: {
    selfSwap: {
      summary: 'Convert 100 USDC into EURC within one wallet',
      value: {
        transactionId: '1f2e3d4c-5b6a-4978-8a6b-5c4d3e2f1a0b',
        walletId,
        destinationWalletId: walletId,
        sendingAssetCode: 'USDC',
        receivingAssetCode: 'EURC',
        amount: 100,
      },
    },
  },
  paySwapBeneficiary: {
    convertAndPay: {
      summary: 'Pay a EURC destination from USDC',
      value: {
        transactionId: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
        walletId,
        beneficiaryId,
        paymentDestinationId: '9a8b7c6d-5e4f-4a3b-9c1d-0e1f2a3b4c5d',
        sendingAssetCode: 'USDC',
        receivingAssetCode: 'EURC',
        amount: 50,
      },
    },
  },
  createWebhook: {
    payments: {
      summary: 'Payment outcomes to an https endpoint',
      value: {
        url: 'https://hooks.example.com/payments',
        events: ['payment.completed', 'payment.failed'],
        description: 'Ledger reconciliation',
      },
    },
  },
  registerIndividualCustomer: {
    individual: { summary: 'A South African customer paying by EFT', value: customerExample.individual },
  },
  registerBusinessCustomer: {
    business: {
      summary: 'A South African company paying by EFT',
      value: {
        registeredName: 'Nkosi Traders (Pty) Ltd',
        registrationNumber: '2019/123456/07',
        countryIsoCode2: 'ZA',
      },
    },
  },
  createOnrampReference: {
    reference: {
      summary: 'A reference for a verified customer, paid into an own USDC wallet',
      value: { customerId: 'cust-00412', connectorId: 'za-bank-onramp-zar-usdc', walletId },
    },
  },
  activateOnrampReferences: {
    pause: {
      summary: 'Deactivate one reference, activate another',
      value: {
        references: [
          { reference: 'PG4821937705', isActive: false },
          { reference: 'PG7730021948', isActive: true },
        ],
      },
    },
  },
  moveOnrampReference: { move: { summary: 'Pay receipts into another own wallet', value: { walletId } } },
  payIntoReference: {
    zar: { summary: 'A customer pays in 1000 ZAR', value: { amount: 1000, currency: 'ZAR' } },
  },
  decideCustomer: { verified: { summary: 'Verify the customer', value: { decision: 'VERIFIED' } } },
  decideKyc: { verified: { summary: 'Verify the wallet', value: { decision: 'Verified' } } },
  fundWallet: { usdc: { summary: 'Mint 1000 test USDC', value: { assetCode: 'USDC', amount: 1000 } } },
  verifyPaymentDestination: {
    approve: { summary: 'Approve the destination', value: { decision: 'APPROVED' } },
  },
  requestRecipientCode: {
    email: {
      summary: 'Send a tester’s inbox its code',
      value: { channel: 'email', address: 'lerato@example.com' },
    },
    whatsapp: {
      summary: 'Send a tester’s phone its code',
      value: { channel: 'whatsapp', address: '+27821234567' },
    },
  },
  confirmRecipient: {
    email: {
      summary: 'Confirm the code the tester received',
      value: { channel: 'email', address: 'lerato@example.com', code: '482913' },
    },
  },
};
