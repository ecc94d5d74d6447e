import { useState } from 'preact/hooks';
import { ApiProblem, ok, portalApi } from '../gateway.ts';
import { FieldError, Problem } from '../ui.tsx';

/**
 * Email, then the 8-digit code the email gives. No password: the inbox is the proof. `ended`: the email
 * of a session that ended mid-page, when it did.
 */
export function SignIn({ ended, onSignedIn }: { ended?: string | undefined; onSignedIn(): void }) {
  const [email, setEmail] = useState(ended ?? '');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const run = (action: () => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(undefined);
    try {
      await action();
    } catch (error) {
      setProblem(error as Error);
    } finally {
      setBusy(false);
    }
  };
  const ask = run(async () => {
    ok(await portalApi.POST('/portal/sign-in', { body: { email } }));
    setSent(true);
  });
  const signIn = run(async () => {
    ok(await portalApi.POST('/portal/sessions', { body: { email, code } }));
    onSignedIn();
  });
  return (
    <main class="signin" id="main">
      <h1>Sign in to the business portal</h1>
      {ended !== undefined && (
        <p class="notice" role="status">
          Your session ended. Sign in again: you will be back where you were, with what you typed.
        </p>
      )}
      <div class="card">
        {!sent ? (
          <form onSubmit={ask}>
            <label>
              Work email
              <input
                type="email"
                name="email"
                autocomplete="email"
                required
                value={email}
                onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
              />
              <FieldError problem={problem} field="email" />
            </label>
            <button type="submit" disabled={busy}>
              Email me a code
            </button>
          </form>
        ) : (
          <form onSubmit={signIn}>
            <p>If {email} is on a team, an 8-digit code is on its way. It works once, for 10 minutes.</p>
            <label>
              Code
              <input
                name="code"
                inputMode="numeric"
                autocomplete="one-time-code"
                required
                value={code}
                onInput={(e) => setCode((e.target as HTMLInputElement).value.trim())}
              />
              <FieldError problem={problem} field="code" />
            </label>
            <button type="submit" disabled={busy}>
              Sign in
            </button>
            <button type="button" class="secondary" onClick={() => setSent(false)}>
              Use another email
            </button>
          </form>
        )}
        {problem instanceof ApiProblem && problem.errors.length === 0 && <Problem problem={problem} />}
      </div>
    </main>
  );
}
