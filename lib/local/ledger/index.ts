// A Horizon-compatible Stellar ledger on loopback, for tests and the local stack: production code using
// `Horizon.Server` (allowHttp) talks to it unchanged. State lives in memory; every accepted transaction closes
// a ledger of its own. See server.ts (HTTP), ledger.ts (submission), validation.ts and operations.ts (rules).
export { startLocalLedger } from './server.ts';
export type {
  LedgerAsset,
  LedgerAssetSpec,
  LedgerGenesis,
  LocalLedger,
  LocalLedgerOptions,
} from './types.ts';
