// What the admin CLI prints when a command fails: one line naming what to do for every expected failure
// (a refusal, a problem the stack answered, a file it cannot read, AWS credentials, a stack that is not
// running), and for anything else one line saying it is a bug and how to see its stack trace (--debug).

/** Names of the errors whose message is already the operator's one line. */
const REFUSALS = [
  'AdminRefusal',
  'TenantAdminRefusal',
  'LedgerAdminRefusal',
  'StageTargetError',
  'StageUnavailableError',
];

/** AWS SDK errors that mean the credentials are missing, expired or not allowed. */
const CREDENTIAL_ERRORS = [
  'CredentialsProviderError',
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'AccessDenied',
  'AccessDeniedException',
];

/**
 * The error of a refused connection ("connect ECONNREFUSED 127.0.0.1:8000"), or undefined for any
 * other failure. Node tries every address of a name (localhost: ::1 and 127.0.0.1) and reports all of
 * them in an AggregateError: refused only when each one was.
 */
function refusedConnection(error: unknown): Error | undefined {
  if (error instanceof AggregateError) {
    const refused = error.errors.map(refusedConnection);
    return refused.length > 0 && refused.every(Boolean) ? refused[0] : undefined;
  }
  return error instanceof Error && (error as { code?: unknown }).code === 'ECONNREFUSED' ? error : undefined;
}

/** The one line for an expected failure, or undefined for a bug. `stage` is --stage, if given. */
export function expectedFailureLine(error: unknown, stage: string | undefined): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const { name, message } = error;
  const code = (error as { code?: unknown }).code;
  if (REFUSALS.includes(name)) return message;
  // A service refused the request as it would over HTTP (a second decision, a wallet already reviewed).
  if (name === 'Problem') return message;
  if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_'))
    return `${message} (npm run admin -- --help lists every command and option)`;
  // --file: missing, unreadable or not JSON.
  if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
    return `Could not read ${(error as { path?: string }).path ?? 'the file'}: ${code}`;
  if (name === 'SyntaxError') return `The file is not JSON: ${message}`;
  if (CREDENTIAL_ERRORS.includes(name))
    return `AWS refused the credentials (${name}: ${message}): sign in again (AWS_PROFILE, aws sso login) and run again.`;
  const refused = refusedConnection(error);
  if (refused) {
    // A stopped `npm start` leaves its .local/stack.env.json behind: say what to do.
    return stage
      ? `Could not connect to the AWS services (${refused.message}): check AWS_ENDPOINT_URL* and the network.`
      : 'The local stack is not running: start it with `npm start` (or pass --stage for a deployed stage).';
  }
  return undefined;
}

/** The one line for a bug: what failed, and how to see where. */
export const unexpectedFailureLine = (error: unknown) =>
  `Unexpected error (a bug: please report it): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}. Run again with --debug for its stack trace.`;
