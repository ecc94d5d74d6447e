// A Horizon-compatible Stellar ledger on loopback, for tests and the local stack: production code using
// `Horizon.Server` (allowHttp) talks to it unchanged. State lives in memory. Ledgers close at once for each
// accepted transaction, or on a cadence (closeIntervalMs) with a pending pool; the ledger keeps its own
// clock, has a friendbot, and misbehaves on demand (faults, /_admin). See server.ts (HTTP), core.ts
// (submission and closes), ledger.ts (the engine), validation.ts and operations.ts (rules).
export { startLocalLedger } from './server.ts';
export type {
  LedgerAsset,
  LedgerAssetSpec,
  LedgerFaultControl,
  LedgerFaults,
  LedgerGenesis,
  LocalLedger,
  LocalLedgerOptions,
  RejectResubmissionFault,
  SubmissionAnswerFault,
} from './types.ts';
