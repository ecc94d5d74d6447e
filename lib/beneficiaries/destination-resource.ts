// A payment destination as the API returns it: account and mobile numbers masked, country named.
import { countryName, regionOf } from './countries.ts';
import type { PaymentDestinationRecord } from './repo.ts';

/** Shows only the last four characters: `******6789` (the length is not revealed either). */
export const mask = (value: string): string => `******${value.slice(-4)}`;

export function toDestinationResource(record: PaymentDestinationRecord) {
  const methodFields =
    record.method === 'BANK'
      ? {
          accountNumber: mask(record.accountNumber ?? ''),
          bankCode: record.bankCode,
          accountHolderName: record.accountHolderName,
          ...(record.bankName ? { bankName: record.bankName } : {}),
          ...(record.accountType ? { accountType: record.accountType } : {}),
        }
      : record.method === 'MOBILE_MONEY'
        ? { mobileNumber: mask(record.mobileNumber ?? ''), provider: record.provider }
        : {
            networkName: record.networkName,
            assetSymbol: record.assetSymbol,
            walletAddress: record.walletAddress,
          };
  return {
    id: record.destinationId,
    beneficiaryId: record.beneficiaryId,
    method: record.method,
    countryIso: record.countryIsoCode2,
    countryName: countryName(record.countryIsoCode2),
    currencyCode: record.currencyCode,
    region: regionOf(record.countryIsoCode2),
    ...methodFields,
    verificationStatus: record.verificationStatus,
    verifyAsMe: record.verifyAsMe,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
