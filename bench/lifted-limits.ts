// The bench's one tenant does in an hour what a tenant's limits bound (lib/limits, lib/config.ts): the
// limits lifted for every section, in `npm run bench`, a section run alone (bench/alone.ts) and the
// functions a hosted stack runs in processes of their own (bench/hosted-stack.ts) alike. Read by
// lib/config.ts when the functions load, so they must be set before the stack starts.

export const TOKEN_RATE_LIMIT = 1_000_000;

/** The lifted limits, as the environment the functions read them from. */
export const benchLimits = (): Record<string, string> => ({
  TOKEN_RATE_LIMIT: String(TOKEN_RATE_LIMIT),
  // Some hundreds of wallets in its hour, near the 1,000 an association may.
  WALLET_CREATE_LIMIT: String(TOKEN_RATE_LIMIT),
  // Funded through the sandbox helper, past the 100,000 a day an association may take.
  SANDBOX_FUND_DAILY_LIMIT: String(TOKEN_RATE_LIMIT * 100),
  // Hundreds of requests a second: the default request limits lifted as well. Section 13 sets its two
  // tenants' limits as their own (never scaled).
  RATE_LIMIT_SCALE: String(TOKEN_RATE_LIMIT),
});

export function liftBenchLimits(): void {
  Object.assign(process.env, benchLimits());
}
