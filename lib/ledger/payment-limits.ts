// What one ledger transaction can carry (100 operations, 20 signatures), turned into the limits of a
// payment, so that every payment the API accepts fits one transaction. Apart from payments.ts (which
// builds the transaction) so the API can check them without the SDK.
//
// The trustlines a payment's destinations lack are opened before it, by intents of their own
// (payments.ts), so the payment's transaction holds only its legs. The limits stay as the contract
// states them (they are in the API's documentation); they leave room to spare.

/** Legs of a multi-transfer: one operation each (100 at most). */
export const MAX_PAYMENT_LEGS = 40;

/**
 * Distinct wallets one payment touches (sources and own destinations): each source signs, beside the
 * channel account (the funding account signs only the fee bump): at most 19 signatures of 20.
 */
export const MAX_PAYMENT_WALLETS = 18;
