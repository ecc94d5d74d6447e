// The bench's one tenant does in an hour what a tenant's limits bound (lib/limits, lib/config.ts): the
// limits lifted for every section, in `npm run bench` and a section run alone (bench/alone.ts) alike.
// Read by lib/config.ts when the functions load, so it must be set before the stack starts.

export const TOKEN_RATE_LIMIT = 1_000_000;

export function liftBenchLimits(): void {
  process.env.TOKEN_RATE_LIMIT = String(TOKEN_RATE_LIMIT);
  // Some hundreds of wallets in its hour, near the 1,000 an association may.
  process.env.WALLET_CREATE_LIMIT = String(TOKEN_RATE_LIMIT);
  // Funded through the sandbox helper, past the 100,000 a day an association may take.
  process.env.SANDBOX_FUND_DAILY_LIMIT = String(TOKEN_RATE_LIMIT * 100);
  // Hundreds of requests a second: the default request limits lifted as well. Section 13 sets its two
  // tenants' limits as their own (never scaled).
  process.env.RATE_LIMIT_SCALE = String(TOKEN_RATE_LIMIT);
}
