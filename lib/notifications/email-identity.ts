// A production stage without an email sending identity sends no email notice: each is recorded skipped.
// Said where an operator looks before and at a deploy, in the same words: `cdk synth`/`cdk deploy` (a
// warning of infra/constructs/notices.ts) and `npm run admin -- preflight` (lib/admin/preflight.ts).

/** The id of the synth's warning (`cdk synth` prints it, `--strict` makes it fail). */
export const NO_EMAIL_IDENTITY_WARNING = 'payments-gateway:no-email-identity';

/** What both say; `how` names the option that configures one where it is said. */
export const noEmailIdentity = (how: string): string =>
  `Email notices are off: no sending identity is configured (${how}, docs/production.md). ` +
  'Every notifyEmail notice will be recorded skipped.';
