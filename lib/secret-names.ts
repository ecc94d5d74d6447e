// The secrets a stage uses. Infra creates them under these names; the local stack serves them from files.
export const secretNames = (stage: string) => ({
  signingKeys: `${stage}/payments-gateway/signing-keys`,
  tokenJwks: `${stage}/payments-gateway/token-jwks`,
  cursorKey: `${stage}/payments-gateway/cursor-key`,
  /** Key-encryption key that seals wallet and platform ledger secrets. */
  walletKek: `${stage}/payments-gateway/wallet-kek`,
});
