// The public shapes of the local ledger: what a test or the local stack hands in (genesis) and gets back.

export interface LedgerAssetSpec {
  code: string;
  issuer: string;
}

/** The native asset is the string `'native'`; every other asset is a code and its issuer. */
export type LedgerAsset = 'native' | LedgerAssetSpec;

export interface LedgerGenesis {
  accounts: Array<{
    publicKey: string;
    /** Decimal XLM, e.g. '100000'. */
    nativeBalance: string;
    trustlines?: Array<{ asset: LedgerAssetSpec; balance: string; limit?: string }>;
  }>;
  /** Constant-product liquidity pools (0.30% fee) for path payments. */
  pools?: Array<{ assetA: LedgerAsset; assetB: LedgerAsset; reserveA: string; reserveB: string }>;
}

export interface LocalLedger {
  url: string;
  networkPassphrase: string;
  stop(): Promise<void>;
  /** Test hook: the next POST /transactions is applied but its HTTP response is dropped (socket destroyed), as after a timeout. */
  dropNextSubmissionResponse(): void;
}

export interface LocalLedgerOptions {
  /** 0 = random. */
  port?: number;
  networkPassphrase: string;
  genesis: LedgerGenesis;
  /** Stroops per operation; default 100. */
  baseFee?: number;
  /** Decimal XLM per reserve unit; default '0.5'. */
  baseReserve?: string;
}
