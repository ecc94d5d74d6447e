// The platform's ledger accounts on a stage (lib/admin/ledger-accounts.ts), invoked by the admin CLI
// (`ledger status`, `channels open`) with Lambda's Invoke: it holds the stage's key-encryption keys,
// which no operator's machine may decrypt. A payload it cannot take is answered, not thrown: the CLI
// prints the reason; an error from the ledger or the table throws (a FunctionError the CLI reports).
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import {
  type LedgerAdminResult,
  ledgerAdminRequest,
  runLedgerAdmin,
} from '../../lib/admin/ledger-accounts.ts';
import { config } from '../../lib/config.ts';
import { logger } from '../../lib/log.ts';

config();

export const handler = middy(async (event: unknown): Promise<LedgerAdminResult> => {
  const parsed = ledgerAdminRequest.safeParse(event);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'payload'}: ${issue.message}`,
    );
    return { ok: false, error: `Invalid request: ${issues.join('; ')}` };
  }
  logger.info('Ledger admin request', { ...parsed.data });
  return runLedgerAdmin(parsed.data);
}).use(injectLambdaContext(logger, { resetKeys: true }));
