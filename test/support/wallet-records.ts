// Wallet records written straight to the table, as POST /wallets writes them (XLM, own account, unless
// the fields say otherwise), for tests that drive activation without the API.
import { randomUUID } from 'node:crypto';
import type { WalletRecord } from '../../lib/wallets/repo.ts';

type Scope = Pick<WalletRecord, 'environment' | 'associationId'>;

/** Inserts a wallet; a 'pending' one asks the stack's outbox for its activation, as POST /wallets does. */
export async function recordWallet(scope: Scope, fields: Partial<WalletRecord> = {}): Promise<WalletRecord> {
  const { putWallet } = await import('../../lib/wallets/repo.ts');
  const { newAccountKeys } = await import('../../lib/ledger/custody.ts');
  const keys = await newAccountKeys(scope.environment);
  const now = new Date().toISOString();
  const record: WalletRecord = {
    walletId: randomUUID(),
    ...scope,
    walletName: 'Recorded',
    assetCode: 'XLM',
    assetIssuer: null,
    ownAccount: true,
    status: 'Verified',
    networkName: 'stellar-testnet',
    publicKey: keys.publicKey,
    sealedSecret: keys.sealedSecret,
    metadata: null,
    activationStatus: 'pending',
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await putWallet(record);
  return record;
}

/**
 * A pending wallet whose insert asked for nothing: inserted 'active', then made 'pending' by an update,
 * which no outbox row routes (lib/outbox.ts). Only the messages a test sends itself ever move it.
 */
export async function recordPendingWithoutOutbox(
  scope: Scope,
  fields: Partial<WalletRecord> = {},
): Promise<WalletRecord> {
  const { updateIf } = await import('../../lib/db/items.ts');
  const { exists } = await import('../../lib/db/conditions.ts');
  const { walletKeys } = await import('../../lib/db/keys.ts');
  const record = await recordWallet(scope, { ...fields, activationStatus: 'active' });
  const updated = await updateIf(
    walletKeys.wallet(scope, record.walletId),
    { set: { activationStatus: 'pending' } },
    exists,
  );
  if (updated.outcome !== 'written') throw new Error(`wallet ${record.walletId}: ${updated.outcome}`);
  return { ...record, activationStatus: 'pending' };
}
