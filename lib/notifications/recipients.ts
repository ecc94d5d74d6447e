// Sandbox recipients (POST /sandbox/notice-recipients and …/verification): before a sandbox notice may go
// to an address, the tenant proves the address agreed. A six-digit code is sent to it once, valid for
// CODE_MINUTES; the tenant confirms it with the code the recipient passes on. Only the code's hash is
// kept; five wrong codes end the attempt. A code that could not be sent, or expired unconfirmed, may be
// asked for again; a pending one may not (no address gets a stream of codes). Each code counts towards
// the tenant's daily cap (daily-cap.ts). The admin CLI can allow an address outright (allowRecipient).
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { findAssociation } from '../auth/associations.ts';
import { tenantScope } from '../db/keys.ts';
import { notFound, Problem, serviceUnavailable, tooManyRequests, unprocessable } from '../http/problem.ts';
import { logger } from '../log.ts';
import type { Environment, Tenant } from '../tenant.ts';
import { assertSandbox } from '../wallets/sandbox.ts';
import { countTowardsDailyCap, noticeDailyLimit } from './daily-cap.ts';
import { emailChannel } from './email.ts';
import { isMailboxSimulator, recipientAddress } from './recipient-rule.ts';
import {
  allowRecipient,
  countFailedTry,
  createRecipient,
  findRecipient,
  markVerified,
  type NoticeChannel,
  type NoticeRecipient,
  updateRecipientCode,
} from './repo.ts';
import { renderRecipientCode } from './templates.ts';
import { whatsAppChannel } from './whatsapp.ts';

const CODE_MINUTES = 60;
const MAX_FAILED_TRIES = 5;

export interface RecipientView {
  channel: NoticeChannel;
  address: string;
  status: 'pending' | 'verified';
  /** While pending: when the code stops working. */
  codeExpiresAt: string | null;
}

const viewOf = (recipient: NoticeRecipient): RecipientView => ({
  channel: recipient.channel,
  address: recipient.address,
  status: recipient.status,
  codeExpiresAt: recipient.status === 'pending' ? (recipient.codeExpiresAt ?? null) : null,
});

/** SES's mailbox simulator needs no code: SES answers for it, and nothing reaches a person. */
const simulatorRecipient = (address: string): RecipientView => ({
  channel: 'email',
  address,
  status: 'verified',
  codeExpiresAt: null,
});

const codeHashOf = (tenant: Tenant, channel: NoticeChannel, address: string, code: string) =>
  createHash('sha256')
    .update(`${tenantScope(tenant)}#${channel}#${address}#${code}`, 'utf8')
    .digest();

const channels = { email: emailChannel, whatsapp: whatsAppChannel };

/** Sends the address its code, once; 202 pending, or 200 as it is when already verified. */
export async function requestRecipientCode(
  tenant: Tenant,
  input: { channel: NoticeChannel; address: string },
  now: Date,
): Promise<{ recipient: RecipientView; sent: boolean }> {
  assertSandbox(tenant);
  const address = recipientAddress(input.channel, input.address);
  if (input.channel === 'email' && isMailboxSimulator(address))
    return { recipient: simulatorRecipient(address), sent: false };
  const existing = await findRecipient(tenant, input.channel, address);
  if (existing?.status === 'verified') return { recipient: viewOf(existing), sent: false };
  if (existing && (existing.codeExpiresAt ?? '') > now.toISOString())
    throw new Problem(
      409,
      `A code was sent to this address already; it is valid until ${existing.codeExpiresAt}.`,
      {
        errors: [{ field: 'address', message: 'has a code waiting to be confirmed' }],
      },
    );
  const channel = channels[input.channel]();
  if (!channel)
    throw serviceUnavailable(`No ${input.channel} sender is configured for this stage; nothing was sent.`);
  const retryAfter = await countTowardsDailyCap(tenant, input.channel, now);
  if (retryAfter !== null)
    throw tooManyRequests(
      retryAfter,
      `This association sent its daily cap of ${noticeDailyLimit(tenant)} notices and codes; retry after ${retryAfter} seconds.`,
    );

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const pending: NoticeRecipient = {
    ...tenant,
    channel: input.channel,
    address,
    status: 'pending',
    by: 'code',
    codeHash: codeHashOf(tenant, input.channel, address, code).toString('hex'),
    codeExpiresAt: new Date(now.getTime() + CODE_MINUTES * 60_000).toISOString(),
    failedTries: 0,
    createdAt: now.toISOString(),
  };
  // The first code, or a new one in place of a code that expired (or never left): conditional on what was
  // read, so two requests at once send one code.
  const written = existing
    ? await updateRecipientCode(pending, existing, now)
    : await createRecipient(pending);
  if (written.outcome !== 'written')
    throw new Problem(409, 'A code was sent to this address already.', {
      errors: [{ field: 'address', message: 'has a code waiting to be confirmed' }],
    });
  const senderName = (await findAssociation(tenant))?.name ?? 'A sandbox tester';
  try {
    await channel.send(address, renderRecipientCode(code, senderName, CODE_MINUTES), {
      environment: tenant.environment,
      associationId: tenant.associationId,
    });
  } catch (error) {
    // Never sent: let a new request send one at once.
    await updateRecipientCode({ ...pending, codeExpiresAt: now.toISOString() }, pending, now);
    logger.warn('Recipient code not sent', { channel: input.channel, error: (error as Error).message });
    throw serviceUnavailable(
      `The ${input.channel} channel did not take the code; nothing was sent. Retry shortly.`,
    );
  }
  return { recipient: viewOf(pending), sent: true };
}

/** Confirms the code the recipient passed on: 200 verified, else 422 naming `code`. */
export async function confirmRecipient(
  tenant: Tenant,
  input: { channel: NoticeChannel; address: string; code: string },
  now: Date,
): Promise<RecipientView> {
  assertSandbox(tenant);
  const address = recipientAddress(input.channel, input.address);
  if (input.channel === 'email' && isMailboxSimulator(address)) return simulatorRecipient(address);
  const recipient = await findRecipient(tenant, input.channel, address);
  if (!recipient)
    throw notFound('No code was sent to this address.', [{ field: 'address', message: 'has no code' }]);
  if (recipient.status === 'verified') return viewOf(recipient);
  const wrong = (message: string) =>
    unprocessable('The code does not verify the address.', [{ field: 'code', message }]);
  if (recipient.failedTries >= MAX_FAILED_TRIES)
    throw wrong(
      `was wrong ${MAX_FAILED_TRIES} times: ask for a new code once this one expires (${recipient.codeExpiresAt})`,
    );
  if ((recipient.codeExpiresAt ?? '') <= now.toISOString()) throw wrong('has expired: ask for a new one');
  const expected = Buffer.from(recipient.codeHash ?? '', 'hex');
  const given = codeHashOf(tenant, input.channel, address, input.code);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await countFailedTry(recipient);
    throw wrong('does not match the code sent');
  }
  const verified = await markVerified(recipient, now);
  if (verified.outcome === 'written') return viewOf(verified.record);
  const current = await findRecipient(tenant, input.channel, address);
  if (current?.status === 'verified') return viewOf(current);
  throw new Problem(409, 'The address changed while it was confirmed; try again.');
}

/** The admin CLI's allow-list: the address may receive the tenant's sandbox notices from now on. */
export async function allowSandboxRecipient(
  tenant: { environment: Environment; associationId: string },
  channel: NoticeChannel,
  address: string,
  now = new Date(),
): Promise<RecipientView> {
  const recipient: NoticeRecipient = {
    ...tenant,
    channel,
    address: recipientAddress(channel, address),
    status: 'verified',
    by: 'admin',
    failedTries: 0,
    createdAt: now.toISOString(),
    verifiedAt: now.toISOString(),
  };
  await allowRecipient(recipient);
  return viewOf(recipient);
}
