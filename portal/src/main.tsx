// The business portal: sign in with an emailed code, then every page reads and writes through the public
// API as the signed-in person (their role is the server's to enforce; the portal hides nothing for it).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { gateway, type PersonToken, portalApi, type Schemas, useTenant } from './gateway.ts';
import { Beneficiaries, Beneficiary, Destination } from './pages/beneficiaries.tsx';
import { Developers } from './pages/developers.tsx';
import { Home } from './pages/home.tsx';
import { Payment, Payments } from './pages/payments.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { Team } from './pages/team.tsx';
import { Wallet, Wallets } from './pages/wallets.tsx';
import { Webhook, Webhooks } from './pages/webhooks.tsx';
import { SESSION_ENDED } from './ui.tsx';

type Session = Schemas['PortalSession'];

const PAGES = [
  ['home', 'Home'],
  ['payments', 'Payments'],
  ['wallets', 'Wallets'],
  ['beneficiaries', 'Beneficiaries'],
  ['webhooks', 'Webhooks'],
  ['developers', 'Developers'],
  ['team', 'Team & audit'],
] as const;

/** `#/payments/<id>` → ['payments', '<id>']. */
function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onHash = () => setRoute(read());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return route;
}

function Content({ route, token }: { route: string[]; token: PersonToken }) {
  const [page = 'home', id, part, partId] = route;
  if (page === 'payments') return id ? <Payment id={id} /> : <Payments />;
  if (page === 'wallets')
    return id ? <Wallet id={id} sandbox={token.environment === 'sandbox'} /> : <Wallets />;
  if (page === 'webhooks') return id ? <Webhook id={id} /> : <Webhooks />;
  if (page === 'beneficiaries') {
    if (id && part === 'destinations' && partId) return <Destination beneficiaryId={id} id={partId} />;
    return id ? <Beneficiary id={id} /> : <Beneficiaries />;
  }
  if (page === 'developers') return <Developers />;
  if (page === 'team') return <Team token={token} />;
  return <Home />;
}

function Shell({ session, token, onSignOut }: { session: Session; token: PersonToken; onSignOut(): void }) {
  const route = useRoute();
  const current = route[0] ?? 'home';
  const sandbox = token.environment === 'sandbox';
  const switchTo = (key: string) => {
    const m = session.memberships.find((x) => `${x.environment}:${x.associationId}` === key);
    if (!m) return;
    useTenant(m);
    location.reload();
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      {sandbox && (
        <div class="banner" role="note">
          <span class="tag">TEST</span> Sandbox: test money only. Helpers on the wallet pages fund wallets and
          set KYC.
        </div>
      )}
      <div class="layout">
        <nav class="side" aria-label="Portal">
          <div class="brand">Payments gateway</div>
          <ul>
            {PAGES.map(([key, label]) => (
              <li key={key}>
                <a href={`#/${key}`} aria-current={current === key ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
          <div class="who">
            <div>{token.email}</div>
            <div>
              Role: <strong>{token.role}</strong>
            </div>
            {session.memberships.length > 1 && (
              <label>
                Account
                <select
                  value={`${token.environment}:${token.associationId}`}
                  onChange={(e) => switchTo((e.target as HTMLSelectElement).value)}
                >
                  {session.memberships.map((m) => (
                    <option
                      key={`${m.environment}:${m.associationId}`}
                      value={`${m.environment}:${m.associationId}`}
                    >
                      {`${m.associationName} (${m.environment === 'sandbox' ? 'test' : 'live'})`}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <p>
              <button type="button" class="secondary" onClick={onSignOut}>
                Sign out
              </button>
            </p>
          </div>
        </nav>
        <main id="main">
          <Content route={route} token={token} />
        </main>
      </div>
    </>
  );
}

function App() {
  const [state, setState] = useState<{
    session?: Session;
    token?: PersonToken;
    checked: boolean;
    /** Set when the session ended mid-page: who was signed in, to sign them in again. */
    ended?: string;
  }>({ checked: false });
  const start = async () => {
    const { data } = await portalApi.GET('/portal/session');
    if (!data) return setState({ checked: true });
    const token = await gateway.token();
    setState({ session: data, token, checked: true });
  };
  useEffect(() => {
    start().catch(() => setState({ checked: true }));
    // A 401 mid-page (ui.tsx kept the forms' drafts): sign in again, on the same page.
    const ended = () => {
      gateway.forget();
      setState((s) => ({ checked: true, ended: s.token?.email ?? '' }));
    };
    addEventListener(SESSION_ENDED, ended);
    return () => removeEventListener(SESSION_ENDED, ended);
  }, []);
  const signOut = async () => {
    await portalApi.DELETE('/portal/session');
    gateway.forget();
    setState({ checked: true });
  };
  if (!state.checked) return <p class="loading">Loading…</p>;
  if (!state.session || !state.token) return <SignIn ended={state.ended} onSignedIn={() => start()} />;
  return <Shell session={state.session} token={state.token} onSignOut={signOut} />;
}

render(<App />, document.getElementById('app') as HTMLElement);
