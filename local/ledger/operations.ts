// The operations this ledger implements, with stellar-core's checks in stellar-core's order: the stateless
// "malformed" checks run at validation, the rest when the operation is applied to the transaction's fork.
// Each operation either succeeds and mutates the fork, or fails and leaves it exactly as it found it.
import { StrKey, xdr } from '@stellar/stellar-sdk';
import { formatAmount, INT64_MAX } from './amounts.ts';
import { assetFields, assetKey, canonicalAsset, comparePair, fromXdrAsset, isCredit } from './assets.ts';
import { depositInto, POOL_FEE_BPS, type PoolTrade, poolIdOf, tradeAlongPath, withinPrice } from './pools.ts';
import type { OpOutcome } from './results-xdr.ts';
import { type Account, availableNative, type Entries, minBalance, newAccount, type Pool } from './state.ts';
import type { LedgerAsset, LedgerAssetSpec } from './types.ts';

/** The base G-address of a (possibly muxed) account. */
export function accountIdOf(account: xdr.MuxedAccount): string {
  const key = account.type === 'keyTypeEd25519' ? account.ed25519 : account.med25519.ed25519;
  return StrKey.encodeEd25519PublicKey(key.toBytes());
}

export function publicKeyId(key: xdr.PublicKey): string {
  return StrKey.encodeEd25519PublicKey(key.ed25519.toBytes());
}

export function operationSource(op: xdr.Operation, txSource: string): string {
  return op.sourceAccount ? accountIdOf(op.sourceAccount) : txSource;
}

/** Whether this ledger implements the operation at all (anything else fails with op_not_supported). */
export function isSupported(op: xdr.Operation): boolean {
  switch (op.body.type) {
    case 'createAccount':
    case 'payment':
    case 'pathPaymentStrictSend':
    case 'changeTrust':
    case 'liquidityPoolDeposit':
      return true;
    default:
      return false;
  }
}

function decodesAssets(assets: xdr.Asset[]): boolean {
  try {
    for (const asset of assets) fromXdrAsset(asset);
    return true;
  } catch {
    return false;
  }
}

/** The credit asset a ChangeTrust names, or null for native, pool shares and invalid codes. */
export function trustedAsset(line: xdr.ChangeTrustAsset): LedgerAssetSpec | null {
  try {
    if (line.type === 'assetTypeCreditAlphanum4') {
      return fromXdrAsset(xdr.Asset.assetTypeCreditAlphanum4(line.alphaNum4)) as LedgerAssetSpec;
    }
    if (line.type === 'assetTypeCreditAlphanum12') {
      return fromXdrAsset(xdr.Asset.assetTypeCreditAlphanum12(line.alphaNum12)) as LedgerAssetSpec;
    }
  } catch {
    // an invalid code or issuer: malformed
  }
  return null;
}

/** The pair a pool-share ChangeTrust names, in the order it names them; null for other lines or bad assets. */
export function sharedPool(
  line: xdr.ChangeTrustAsset,
): { assetA: LedgerAsset; assetB: LedgerAsset; fee: number } | null {
  if (line.type !== 'assetTypePoolShare') return null;
  const { assetA, assetB, fee } = line.liquidityPool.constantProduct;
  return decodesAssets([assetA, assetB])
    ? { assetA: fromXdrAsset(assetA), assetB: fromXdrAsset(assetB), fee }
    : null;
}

/** A pool-share line is well formed when its pair is in the network's order and its fee the only one (30 bps). */
function malformedPoolShare(op: xdr.ChangeTrustOp): string | null {
  const pool = sharedPool(op.line);
  const ok = pool && comparePair(pool.assetA, pool.assetB) < 0 && BigInt(pool.fee) === POOL_FEE_BPS;
  return ok && op.limit >= 0n ? null : 'op_malformed';
}

const positivePrice = (price: xdr.Price) => price.n > 0 && price.d > 0;

/** stellar-core's doCheckValid: the checks that need no ledger state. Null when well formed. */
export function malformedCode(op: xdr.Operation, source: string): string | null {
  const body = op.body;
  switch (body.type) {
    case 'createAccount': {
      const destination = publicKeyId(body.createAccountOp.destination);
      return body.createAccountOp.startingBalance < 0n || destination === source ? 'op_malformed' : null;
    }
    case 'payment':
      return body.paymentOp.amount <= 0n || !decodesAssets([body.paymentOp.asset]) ? 'op_malformed' : null;
    case 'pathPaymentStrictSend': {
      const p = body.pathPaymentStrictSendOp;
      const ok = p.sendAmount > 0n && p.destMin > 0n && p.path.length <= 5;
      return ok && decodesAssets([p.sendAsset, p.destAsset, ...p.path]) ? null : 'op_malformed';
    }
    case 'changeTrust': {
      if (body.changeTrustOp.line.type === 'assetTypePoolShare')
        return malformedPoolShare(body.changeTrustOp);
      const asset = trustedAsset(body.changeTrustOp.line);
      if (body.changeTrustOp.limit < 0n || !asset) return 'op_malformed';
      // Since protocol 16 trusting your own asset is malformed rather than op_self_not_allowed.
      return asset.issuer === source ? 'op_malformed' : null;
    }
    case 'liquidityPoolDeposit': {
      const { maxAmountA, maxAmountB, minPrice, maxPrice } = body.liquidityPoolDepositOp;
      const ok =
        maxAmountA > 0n &&
        maxAmountB > 0n &&
        positivePrice(minPrice) &&
        positivePrice(maxPrice) &&
        BigInt(minPrice.n) * BigInt(maxPrice.d) <= BigInt(maxPrice.n) * BigInt(minPrice.d);
      return ok ? null : 'op_malformed';
    }
    default:
      return null;
  }
}

/** An effect as Horizon reports it: its type, the account it concerns, and its type-specific fields. */
export interface EffectSpec {
  type: string;
  account: string;
  fields: Record<string, unknown>;
}

export interface AppliedOperation {
  outcome: OpOutcome;
  effects: EffectSpec[];
}

export interface ApplyContext {
  entries: Entries;
  baseReserve: bigint;
  ledger: number;
  closeTime: number;
}

function touch(ctx: ApplyContext, account: Account): void {
  account.lastModifiedLedger = ctx.ledger;
  account.lastModifiedTime = ctx.closeTime;
}

/** Null when `account` can receive `amount` of `asset`, else the failure code (op_no_trust / op_line_full). */
function creditProblem(account: Account, asset: LedgerAsset, amount: bigint): string | null {
  if (!isCredit(asset)) return account.balance + amount > INT64_MAX ? 'op_line_full' : null;
  if (asset.issuer === account.id) return null; // the issuer receiving its own asset burns it
  const line = account.trustlines.get(assetKey(asset));
  if (!line) return 'op_no_trust';
  return line.balance + amount > line.limit ? 'op_line_full' : null;
}

/** Null when `account` can send `amount` of `asset` (keeping its XLM reserve), else op_src_no_trust / op_underfunded. */
function debitProblem(
  account: Account,
  asset: LedgerAsset,
  amount: bigint,
  baseReserve: bigint,
): string | null {
  if (!isCredit(asset)) return availableNative(account, baseReserve) < amount ? 'op_underfunded' : null;
  if (asset.issuer === account.id) return null; // the issuer sending its own asset mints it
  const line = account.trustlines.get(assetKey(asset));
  if (!line) return 'op_src_no_trust';
  return line.balance < amount ? 'op_underfunded' : null;
}

function move(ctx: ApplyContext, account: Account, asset: LedgerAsset, delta: bigint): void {
  touch(ctx, account);
  if (!isCredit(asset)) {
    account.balance += delta;
    return;
  }
  if (asset.issuer === account.id) return;
  const line = account.trustlines.get(assetKey(asset));
  if (!line) throw new Error(`no ${assetKey(asset)} trustline on ${account.id}`);
  line.balance += delta;
  line.lastModifiedLedger = ctx.ledger;
}

function transferEffects(
  from: string,
  to: string,
  sent: { asset: LedgerAsset; amount: bigint },
  received: { asset: LedgerAsset; amount: bigint },
): EffectSpec[] {
  return [
    {
      type: 'account_credited',
      account: to,
      fields: { ...assetFields(received.asset), amount: formatAmount(received.amount) },
    },
    {
      type: 'account_debited',
      account: from,
      fields: { ...assetFields(sent.asset), amount: formatAmount(sent.amount) },
    },
  ];
}

function fail(kind: OpOutcome['kind'], code: string): AppliedOperation {
  return { outcome: { kind, code }, effects: [] };
}

function createAccount(ctx: ApplyContext, source: Account, op: xdr.CreateAccountOp): AppliedOperation {
  const id = publicKeyId(op.destination);
  if (ctx.entries.accounts.has(id)) return fail('createAccount', 'op_already_exists');
  const created = newAccount(id, op.startingBalance, ctx.ledger, ctx.closeTime);
  if (op.startingBalance < minBalance(created, ctx.baseReserve))
    return fail('createAccount', 'op_low_reserve');
  if (availableNative(source, ctx.baseReserve) < op.startingBalance)
    return fail('createAccount', 'op_underfunded');
  ctx.entries.accounts.set(id, created);
  move(ctx, source, 'native', -op.startingBalance);
  return {
    outcome: { kind: 'createAccount', code: 'op_success' },
    effects: [
      {
        type: 'account_created',
        account: id,
        fields: { starting_balance: formatAmount(op.startingBalance) },
      },
      {
        type: 'account_debited',
        account: source.id,
        fields: { asset_type: 'native', amount: formatAmount(op.startingBalance) },
      },
      { type: 'signer_created', account: id, fields: { weight: 1, public_key: id, key: '' } },
    ],
  };
}

function payment(ctx: ApplyContext, source: Account, op: xdr.PaymentOp): AppliedOperation {
  const asset = fromXdrAsset(op.asset);
  const destination = ctx.entries.accounts.get(accountIdOf(op.destination));
  if (!destination) return fail('payment', 'op_no_destination');
  const transfer = { asset, amount: op.amount };
  // stellar-core short-circuits an XLM payment to oneself.
  if (destination === source && !isCredit(asset)) {
    return { outcome: { kind: 'payment', code: 'op_success' }, effects: [] };
  }
  // As in core (a payment is a strict-receive path payment): the destination side is checked first.
  const creditCode = creditProblem(destination, asset, op.amount);
  if (creditCode) return fail('payment', creditCode);
  const debitCode = destination === source ? null : debitProblem(source, asset, op.amount, ctx.baseReserve);
  if (debitCode) return fail('payment', debitCode);
  move(ctx, source, asset, -op.amount);
  move(ctx, destination, asset, op.amount);
  return {
    outcome: { kind: 'payment', code: 'op_success' },
    effects: transferEffects(source.id, destination.id, transfer, transfer),
  };
}

/** A pool as Horizon's effects and its /liquidity_pools resource describe it. */
export function poolFields(pool: Pool): Record<string, unknown> {
  return {
    id: pool.id,
    fee_bp: Number(POOL_FEE_BPS),
    type: 'constant_product',
    total_trustlines: String(pool.trustlines),
    total_shares: formatAmount(pool.totalShares),
    reserves: [
      { asset: canonicalAsset(pool.assetA), amount: formatAmount(pool.reserveA) },
      { asset: canonicalAsset(pool.assetB), amount: formatAmount(pool.reserveB) },
    ],
  };
}

function poolEffect(source: string, trade: PoolTrade): EffectSpec {
  return {
    type: 'liquidity_pool_trade',
    account: source,
    fields: {
      liquidity_pool: poolFields(trade.pool),
      // From the pool's side, as Horizon reports it: what it sold to and bought from the trader.
      sold: { asset: canonicalAsset(trade.sold.asset), amount: formatAmount(trade.sold.amount) },
      bought: { asset: canonicalAsset(trade.bought.asset), amount: formatAmount(trade.bought.amount) },
    },
  };
}

function pathPaymentStrictSend(
  ctx: ApplyContext,
  source: Account,
  op: xdr.PathPaymentStrictSendOp,
): AppliedOperation {
  const kind = 'pathPaymentStrictSend';
  const sendAsset = fromXdrAsset(op.sendAsset);
  const destAsset = fromXdrAsset(op.destAsset);
  const destination = ctx.entries.accounts.get(accountIdOf(op.destination));
  if (!destination) return fail(kind, 'op_no_destination');
  const debitCode = debitProblem(source, sendAsset, op.sendAmount, ctx.baseReserve);
  if (debitCode) return fail(kind, debitCode);
  // Trade on copies of the pools; they replace the fork's only if the whole operation succeeds.
  const pools = new Map<string, Pool>();
  for (const [id, pool] of ctx.entries.pools) pools.set(id, { ...pool });
  const traded = tradeAlongPath(pools, [sendAsset, ...op.path.map(fromXdrAsset), destAsset], op.sendAmount);
  if (!traded) return fail(kind, 'op_too_few_offers');
  if (traded.amountOut < op.destMin) return fail(kind, 'op_under_dest_min');
  move(ctx, source, sendAsset, -op.sendAmount);
  const creditCode = creditProblem(destination, destAsset, traded.amountOut);
  if (creditCode) {
    move(ctx, source, sendAsset, op.sendAmount);
    return fail(kind, creditCode);
  }
  move(ctx, destination, destAsset, traded.amountOut);
  ctx.entries.pools = pools;
  return {
    outcome: {
      kind,
      code: 'op_success',
      strictSend: {
        trades: traded.trades,
        destination: destination.id,
        asset: destAsset,
        amount: traded.amountOut,
      },
    },
    effects: [
      ...transferEffects(
        source.id,
        destination.id,
        { asset: sendAsset, amount: op.sendAmount },
        { asset: destAsset, amount: traded.amountOut },
      ),
      ...traded.trades.map((trade) => poolEffect(source.id, trade)),
    ],
  };
}

function trustlineEffect(type: string, account: Account, fields: Record<string, unknown>): AppliedOperation {
  return {
    outcome: { kind: 'changeTrust', code: 'op_success' },
    effects: [{ type, account: account.id, fields }],
  };
}

/**
 * A pool-share trustline, as stellar-core keeps it: two subentries, a trustline for each credit asset of
 * the pair first (unless the account issues it), and the pool itself opened (empty) by the first one.
 */
function changePoolTrust(ctx: ApplyContext, source: Account, op: xdr.ChangeTrustOp): AppliedOperation {
  const kind = 'changeTrust';
  const pair = sharedPool(op.line);
  if (!pair) return fail(kind, 'op_malformed');
  const id = poolIdOf(pair.assetA, pair.assetB);
  const existing = source.poolShares.get(id);
  const fields = {
    asset_type: 'liquidity_pool_shares',
    liquidity_pool_id: id,
    limit: formatAmount(op.limit),
  };
  if (existing) {
    if (op.limit < existing.balance) return fail(kind, 'op_invalid_limit');
    touch(ctx, source);
    if (op.limit > 0n) {
      existing.limit = op.limit;
      existing.lastModifiedLedger = ctx.ledger;
      return trustlineEffect('trustline_updated', source, fields);
    }
    source.poolShares.delete(id);
    source.subentries -= 2;
    const pool = ctx.entries.pools.get(id);
    if (pool) pool.trustlines -= 1;
    if (pool && pool.trustlines === 0 && pool.totalShares === 0n) ctx.entries.pools.delete(id);
    return trustlineEffect('trustline_removed', source, fields);
  }
  if (op.limit === 0n) return fail(kind, 'op_invalid_limit');
  for (const asset of [pair.assetA, pair.assetB]) {
    if (isCredit(asset) && asset.issuer !== source.id && !source.trustlines.has(assetKey(asset)))
      return fail(kind, 'op_trust_line_missing');
  }
  if (source.balance < minBalance(source, ctx.baseReserve, 2)) return fail(kind, 'op_low_reserve');
  touch(ctx, source);
  source.poolShares.set(id, { balance: 0n, limit: op.limit, lastModifiedLedger: ctx.ledger });
  source.subentries += 2;
  const pool = ctx.entries.pools.get(id) ?? {
    id,
    assetA: pair.assetA,
    assetB: pair.assetB,
    reserveA: 0n,
    reserveB: 0n,
    totalShares: 0n,
    trustlines: 0,
  };
  pool.trustlines += 1;
  ctx.entries.pools.set(id, pool);
  return trustlineEffect('trustline_created', source, fields);
}

/** Checks in stellar-core's order: trust, funds, price, the share line's room, the pool's. */
function liquidityPoolDeposit(
  ctx: ApplyContext,
  source: Account,
  op: xdr.LiquidityPoolDepositOp,
): AppliedOperation {
  const kind = 'liquidityPoolDeposit';
  const id = Buffer.from(op.liquidityPoolId.value).toString('hex');
  const line = source.poolShares.get(id);
  const pool = ctx.entries.pools.get(id);
  if (!line || !pool) return fail(kind, 'op_no_trust');
  const assets = [pool.assetA, pool.assetB];
  if (assets.some((a) => isCredit(a) && a.issuer !== source.id && !source.trustlines.has(assetKey(a))))
    return fail(kind, 'op_no_trust');
  const deposit = depositInto(pool, op.maxAmountA, op.maxAmountB);
  if (
    debitProblem(source, pool.assetA, deposit.amountA, ctx.baseReserve) ||
    debitProblem(source, pool.assetB, deposit.amountB, ctx.baseReserve)
  )
    return fail(kind, 'op_underfunded');
  const price = (p: xdr.Price) => ({ n: BigInt(p.n), d: BigInt(p.d) });
  if (!withinPrice(deposit, price(op.minPrice), price(op.maxPrice))) return fail(kind, 'op_bad_price');
  if (deposit.shares <= 0n || line.balance + deposit.shares > line.limit) return fail(kind, 'op_line_full');
  if (
    pool.reserveA + deposit.amountA > INT64_MAX ||
    pool.reserveB + deposit.amountB > INT64_MAX ||
    pool.totalShares + deposit.shares > INT64_MAX
  )
    return fail(kind, 'op_pool_full');
  move(ctx, source, pool.assetA, -deposit.amountA);
  move(ctx, source, pool.assetB, -deposit.amountB);
  pool.reserveA += deposit.amountA;
  pool.reserveB += deposit.amountB;
  pool.totalShares += deposit.shares;
  line.balance += deposit.shares;
  line.lastModifiedLedger = ctx.ledger;
  return {
    outcome: { kind, code: 'op_success' },
    effects: [
      {
        type: 'liquidity_pool_deposited',
        account: source.id,
        fields: {
          liquidity_pool: poolFields(pool),
          reserves_deposited: [
            { asset: canonicalAsset(pool.assetA), amount: formatAmount(deposit.amountA) },
            { asset: canonicalAsset(pool.assetB), amount: formatAmount(deposit.amountB) },
          ],
          shares_received: formatAmount(deposit.shares),
        },
      },
    ],
  };
}

function changeTrust(ctx: ApplyContext, source: Account, op: xdr.ChangeTrustOp): AppliedOperation {
  if (op.line.type === 'assetTypePoolShare') return changePoolTrust(ctx, source, op);
  const kind = 'changeTrust';
  const asset = trustedAsset(op.line);
  if (!asset) return fail(kind, 'op_malformed');
  const key = assetKey(asset);
  const existing = source.trustlines.get(key);
  const fields = { ...assetFields(asset), limit: formatAmount(op.limit) };
  if (existing) {
    if (op.limit < existing.balance) return fail(kind, 'op_invalid_limit');
    touch(ctx, source);
    if (op.limit === 0n) {
      source.trustlines.delete(key);
      source.subentries -= 1;
      return {
        outcome: { kind, code: 'op_success' },
        effects: [{ type: 'trustline_removed', account: source.id, fields }],
      };
    }
    existing.limit = op.limit;
    existing.lastModifiedLedger = ctx.ledger;
    return {
      outcome: { kind, code: 'op_success' },
      effects: [{ type: 'trustline_updated', account: source.id, fields }],
    };
  }
  if (op.limit === 0n) return fail(kind, 'op_invalid_limit');
  if (!ctx.entries.accounts.has(asset.issuer)) return fail(kind, 'op_no_issuer');
  if (source.balance < minBalance(source, ctx.baseReserve, 1)) return fail(kind, 'op_low_reserve');
  touch(ctx, source);
  source.trustlines.set(key, { asset, balance: 0n, limit: op.limit, lastModifiedLedger: ctx.ledger });
  source.subentries += 1;
  return {
    outcome: { kind, code: 'op_success' },
    effects: [{ type: 'trustline_created', account: source.id, fields }],
  };
}

/** Applies one operation to the fork in `ctx` (signatures were checked at validation, as since protocol 10). */
export function applyOperation(ctx: ApplyContext, txSource: string, op: xdr.Operation): AppliedOperation {
  const kind = op.body.type;
  const source = ctx.entries.accounts.get(operationSource(op, txSource));
  if (!source) return fail(kind, 'op_no_source_account');
  const body = op.body;
  switch (body.type) {
    case 'createAccount':
      return createAccount(ctx, source, body.createAccountOp);
    case 'payment':
      return payment(ctx, source, body.paymentOp);
    case 'pathPaymentStrictSend':
      return pathPaymentStrictSend(ctx, source, body.pathPaymentStrictSendOp);
    case 'changeTrust':
      return changeTrust(ctx, source, body.changeTrustOp);
    case 'liquidityPoolDeposit':
      return liquidityPoolDeposit(ctx, source, body.liquidityPoolDepositOp);
    default:
      return fail(kind, 'op_not_supported');
  }
}
