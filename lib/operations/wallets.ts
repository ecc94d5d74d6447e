import { createWalletBody, listWalletsQuery, walletIdParams } from '../wallets/schema.ts';
import { createWallet, getWallet, listWallets } from '../wallets/service.ts';
import { createOperation, listOperation, readOperation } from './tenant-shapes.ts';

/** The operations of functions/api/wallets.ts, by the operation names of lib/routes.ts. */
export const walletsOperations = {
  listWallets: listOperation(listWalletsQuery, listWallets),
  createWallet: createOperation(createWalletBody, createWallet),
  getWallet: readOperation(walletIdParams, 'walletId', getWallet),
};
