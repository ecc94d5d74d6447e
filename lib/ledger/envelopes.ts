// A wallet operation's envelope: a transaction on the intent's leased channel account, signed by the
// channel and each account an operation acts for, wrapped in a fee bump the funding account pays, so
// wallets never hold XLM for fees.
import {
  type FeeBumpTransaction,
  type Keypair,
  type Transaction,
  TransactionBuilder,
} from '@stellar/stellar-sdk';
import { type AccountKeys, openSecret } from './custody.ts';
import {
  type BuildContext,
  baseFeeFor,
  intentNonce,
  notedInner,
  signOnce,
  sourceAccountFor,
  timeBoundsFor,
} from './submit.ts';

/** The leased channel submitOnce hands every wallet operation's builder (they all ask for one). */
function channelOf(ctx: BuildContext): NonNullable<BuildContext['channel']> {
  if (!ctx.channel) throw new Error('Built without a channel account');
  return ctx.channel;
}

/**
 * A transaction on the intent's channel account, with the fee and time bounds of this attempt; its
 * minTime is the intent's nonce, so it is the intent's alone (intentNonce).
 */
export function onChannel(ctx: BuildContext): TransactionBuilder {
  return new TransactionBuilder(sourceAccountFor(ctx, channelOf(ctx).account), {
    fee: baseFeeFor(ctx.feeLevel),
    networkPassphrase: ctx.networkPassphrase,
    timebounds: { ...timeBoundsFor(ctx.now), minTime: intentNonce(ctx.intentId) },
  });
}

/** Signs with the channel (the transaction's source) and each account an operation acts for. */
export async function signed(
  inner: Transaction,
  ctx: BuildContext,
  signers: AccountKeys[],
): Promise<Transaction> {
  const { signer } = channelOf(ctx);
  const keys = await Promise.all(
    [signer, ...signers].map((account) =>
      openSecret(ctx.environment, account.publicKey, account.sealedSecret),
    ),
  );
  // The transaction is hashed (encoded to XDR) once for every signature, and for its envelope after.
  signOnce(inner, ...keys);
  return inner;
}

/** Wraps a signed transaction in a fee bump paid (and signed) by the funding account. */
export function feeBumped(inner: Transaction, fundingKeys: Keypair, ctx: BuildContext): FeeBumpTransaction {
  const bump = TransactionBuilder.buildFeeBumpTransaction(
    fundingKeys,
    baseFeeFor(ctx.feeLevel),
    inner,
    ctx.networkPassphrase,
  );
  signOnce(bump, fundingKeys);
  return notedInner(bump, inner);
}

/** The channel transaction `builder` holds, signed by `signers`, fee-bumped and signed by `funding`. */
export async function fundedEnvelope(
  builder: TransactionBuilder,
  ctx: BuildContext,
  signers: AccountKeys[],
  funding: AccountKeys,
): Promise<FeeBumpTransaction> {
  const inner = await signed(builder.build(), ctx, signers);
  return feeBumped(inner, await openSecret(ctx.environment, funding.publicKey, funding.sealedSecret), ctx);
}
