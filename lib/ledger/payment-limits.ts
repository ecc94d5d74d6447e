// What one ledger transaction can carry (100 operations, 20 signatures), turned into the limits of a
// payment, so that every payment the API accepts fits one transaction whatever trustlines it must open.
// Apart from payments.ts (which builds the transaction) so the API can check them without the SDK.

/**
 * Legs of a multi-transfer: each leg is one operation and may need one ChangeTrust for its destination,
 * and each wallet at most one reserve top-up: 40 + 40 + 18 = 98 ≤ 100 operations.
 */
export const MAX_PAYMENT_LEGS = 40;

/**
 * Distinct wallets one payment touches (sources and own destinations): each may sign, beside the channel
 * account and the funding account (top-ups): 18 + 2 = 20 signatures.
 */
export const MAX_PAYMENT_WALLETS = 18;
