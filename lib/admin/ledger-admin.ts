// The admin CLI's side of functions/admin/ledger-accounts.ts: one Lambda Invoke of the stage's ledger
// admin function (LEDGER_ADMIN_FUNCTION: the stack output, or the local stack's), its answer returned as
// the report to print, or thrown as the reason it did nothing.
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { LedgerAdminRequest, LedgerAdminResult } from './ledger-accounts.ts';
import { AdminRefusal } from './refusal.ts';

export class LedgerAdminRefusal extends AdminRefusal {
  override name = 'LedgerAdminRefusal';
}

export async function invokeLedgerAdmin(request: LedgerAdminRequest): Promise<unknown> {
  const functionName = process.env.LEDGER_ADMIN_FUNCTION;
  if (!functionName)
    throw new LedgerAdminRefusal('LEDGER_ADMIN_FUNCTION is not set: start the local stack or pass --stage');
  // Opening accounts takes ledger rounds: wait as long as the function may run (its timeout, 60 s).
  const client = new LambdaClient({ requestHandler: { requestTimeout: 70_000 } });
  try {
    const answer = await client
      .send(
        new InvokeCommand({
          FunctionName: functionName,
          Payload: new TextEncoder().encode(JSON.stringify(request)),
        }),
      )
      .catch((error: Error) => {
        // Refused (no lambda:InvokeFunction), not found, throttled: Lambda's own words, in one line.
        throw new LedgerAdminRefusal(`Could not invoke ${functionName}: ${error.name}: ${error.message}`);
      });
    const payload: unknown = answer.Payload ? JSON.parse(new TextDecoder().decode(answer.Payload)) : null;
    if (answer.FunctionError) {
      const { errorType, errorMessage } = (payload ?? {}) as { errorType?: string; errorMessage?: string };
      throw new LedgerAdminRefusal(
        `${functionName} failed: ${errorType ?? 'Error'}: ${errorMessage ?? 'no message'}`,
      );
    }
    const result = payload as LedgerAdminResult;
    if (!result.ok) throw new LedgerAdminRefusal(result.error);
    return result.report;
  } finally {
    client.destroy();
  }
}
