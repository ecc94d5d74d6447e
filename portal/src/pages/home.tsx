import { api, ok } from '../gateway.ts';
import { Loading, Page, useLoad } from '../ui.tsx';

const DAY = 86400_000;

/** Balances per asset over every wallet, and the last 30 days' payments and failures per day. */
export function Home() {
  const load = useLoad(async () => {
    const since = new Date(Date.now() - 29 * DAY).toISOString().slice(0, 10);
    const [wallets, payments] = await Promise.all([
      api().GET('/wallets', { params: { query: { limit: 100 } } }),
      api().GET('/transactions', { params: { query: { limit: 100, createdFrom: `${since}T00:00:00Z` } } }),
    ]);
    return { wallets: ok(wallets).data, payments: ok(payments).data };
  }, []);
  const totals = new Map<string, number>();
  for (const w of load.data?.wallets ?? [])
    for (const b of w.balances ?? [])
      totals.set(b.assetCode, (totals.get(b.assetCode) ?? 0) + Number(b.balance));
  const days = Array.from({ length: 30 }, (_, i) =>
    new Date(Date.now() - (29 - i) * DAY).toISOString().slice(0, 10),
  );
  const perDay = days.map((day) => {
    const of = (load.data?.payments ?? []).filter((p) => p.createdAt.startsWith(day));
    return { day, all: of.length, failed: of.filter((p) => p.status === 'failed').length };
  });
  const most = Math.max(1, ...perDay.map((d) => d.all));
  const today = perDay.at(-1);
  const pendingKyc = (load.data?.wallets ?? []).filter((w) => w.status === 'Pending').length;
  return (
    <Page title="Home">
      <Loading load={load} />
      {load.data && (
        <>
          <h2>Balances</h2>
          <div class="cards">
            {[...totals].map(([asset, total]) => (
              <div class="card" key={asset}>
                <div class="muted">{asset}</div>
                <div class="big">{total.toLocaleString('en-GB', { maximumFractionDigits: 7 })}</div>
              </div>
            ))}
            {totals.size === 0 && <p>No balances yet.</p>}
          </div>
          <h2>Needs action</h2>
          <ul>
            <li>
              <a href="#/wallets">{pendingKyc} wallet(s) waiting for a KYC decision</a>
            </li>
            <li>
              <a href="#/payments">
                {load.data.payments.filter((p) => p.status === 'failed').length} failed payment(s) in 30 days
              </a>
            </li>
          </ul>
          <h2>Payments, last 30 days</h2>
          <p>
            Today: {today?.all ?? 0} payments, {today?.failed ?? 0} failed.
          </p>
          <div class="chart" role="img" aria-label={`Payments per day over 30 days; busiest day ${most}.`}>
            {perDay.map((d) => (
              <div
                key={d.day}
                class={`bar${d.failed ? ' fail' : ''}`}
                title={`${d.day}: ${d.all} (${d.failed} failed)`}
                style={{ height: `${Math.round((d.all / most) * 100)}%` }}
              />
            ))}
          </div>
        </>
      )}
    </Page>
  );
}
