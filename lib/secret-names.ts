// The secrets a stage uses. Infra creates them under these names; the local stack serves them from files.
export const secretNames = (stage: string) => ({
  signingKeys: `${stage}/payments-gateway/signing-keys`,
  tokenJwks: `${stage}/payments-gateway/token-jwks`,
  cursorKey: `${stage}/payments-gateway/cursor-key`,
});
