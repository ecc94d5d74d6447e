// Assets in their three spellings: ours (LedgerAsset), the SDK's XDR union, and Horizon's JSON fields.
import { Asset, StrKey, type xdr } from '@stellar/stellar-sdk';
import type { LedgerAsset, LedgerAssetSpec } from './types.ts';

export type HorizonAssetType = 'native' | 'credit_alphanum4' | 'credit_alphanum12';

const CODE = /^[a-zA-Z0-9]{1,12}$/;

/** Throws unless the asset is one the network would accept (code shape, issuer a valid G-address). */
export function checkAsset(asset: LedgerAsset): LedgerAsset {
  if (asset === 'native') return asset;
  if (!CODE.test(asset.code)) throw new RangeError(`invalid asset code ${JSON.stringify(asset.code)}`);
  if (!StrKey.isValidEd25519PublicKey(asset.issuer)) throw new RangeError(`invalid issuer ${asset.issuer}`);
  return { code: asset.code, issuer: asset.issuer };
}

export function isNative(asset: LedgerAsset): asset is 'native' {
  return asset === 'native';
}

/** A map key: 'native' or 'CODE:ISSUER' (the same spelling Horizon uses in query strings). */
export function assetKey(asset: LedgerAsset): string {
  return asset === 'native' ? 'native' : `${asset.code}:${asset.issuer}`;
}

export function sameAsset(a: LedgerAsset, b: LedgerAsset): boolean {
  return assetKey(a) === assetKey(b);
}

export function assetType(asset: LedgerAsset): HorizonAssetType {
  if (asset === 'native') return 'native';
  return asset.code.length <= 4 ? 'credit_alphanum4' : 'credit_alphanum12';
}

export function toSdkAsset(asset: LedgerAsset): Asset {
  return asset === 'native' ? Asset.native() : new Asset(asset.code, asset.issuer);
}

export function toXdrAsset(asset: LedgerAsset): xdr.Asset {
  return toSdkAsset(asset).toXdrObject();
}

/** Decodes an operation's asset; throws on an asset the SDK itself rejects (which we answer as malformed). */
export function fromXdrAsset(asset: xdr.Asset): LedgerAsset {
  const sdk = Asset.fromOperation(asset);
  if (sdk.isNative()) return 'native';
  return checkAsset({ code: sdk.getCode(), issuer: sdk.getIssuer() ?? '' });
}

/** Horizon's `asset_type`/`asset_code`/`asset_issuer` triple, optionally prefixed (`source_asset_type`…). */
export function assetFields(asset: LedgerAsset, prefix = ''): Record<string, string> {
  if (asset === 'native') return { [`${prefix}asset_type`]: 'native' };
  return {
    [`${prefix}asset_type`]: assetType(asset),
    [`${prefix}asset_code`]: asset.code,
    [`${prefix}asset_issuer`]: asset.issuer,
  };
}

/** 'native' or 'CODE:ISSUER', as in the `asset` field of Horizon's reserves and trades. */
export function canonicalAsset(asset: LedgerAsset): string {
  return assetKey(asset);
}

/** Parses 'native' or 'CODE:ISSUER'. */
export function parseCanonicalAsset(text: string): LedgerAsset {
  if (text === 'native') return 'native';
  const [code, issuer, extra] = text.split(':');
  if (code === undefined || issuer === undefined || extra !== undefined) {
    throw new RangeError(`not an asset: ${text}`);
  }
  return checkAsset({ code, issuer });
}

/** Orders two assets the way the network orders a pool's pair (native first, then by type, code, issuer). */
export function comparePair(a: LedgerAsset, b: LedgerAsset): -1 | 0 | 1 {
  return Asset.compare(toSdkAsset(a), toSdkAsset(b));
}

export function isCredit(asset: LedgerAsset): asset is LedgerAssetSpec {
  return asset !== 'native';
}
