import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../gateway.ts';
import { Back, Loading, Page, Pager, Status, Table, useLoad, when } from '../ui.tsx';

type Filters = { status: string; type: string; walletId: string; createdFrom: string; createdTo: string };
const STATUSES = ['initiated', 'processing', 'completed', 'failed'];
const TYPES = ['p2p', 'swap', 'offramp', 'onramp', 'multi'];
const empty: Filters = { status: '', type: '', walletId: '', createdFrom: '', createdTo: '' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The transactions list with every filter the API has, cursor paging, and a search by record id. */
export function Payments() {
  const [filters, setFilters] = useState<Filters>(empty);
  const [applied, setApplied] = useState<Filters>(empty);
  const [cursors, setCursors] = useState<string[]>([]);
  const [search, setSearch] = useState('');
  const cursor = cursors.at(-1);
  const load = useLoad(async () => {
    // The API takes date-times: a day's start, and the start of the day after the last one.
    const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86400_000).toISOString();
    const query = Object.fromEntries(
      Object.entries({
        ...applied,
        createdFrom: applied.createdFrom && `${applied.createdFrom}T00:00:00Z`,
        createdTo: applied.createdTo && dayAfter(applied.createdTo),
      }).filter(([, v]) => v !== ''),
    );
    return ok(
      await api().GET('/transactions', {
        params: { query: { ...query, limit: 25, ...(cursor ? { cursor } : {}) } as never },
      }),
    );
  }, [applied, cursor]);
  const set = (name: keyof Filters) => (e: Event) =>
    setFilters({ ...filters, [name]: (e.target as HTMLInputElement).value });
  const find = (e: Event) => {
    e.preventDefault();
    if (UUID.test(search.trim())) location.hash = `#/payments/${search.trim().toLowerCase()}`;
  };
  return (
    <Page title="Payments">
      <search>
        <form class="inline" onSubmit={find}>
          <label>
            Find by record id
            <input
              value={search}
              onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
              size={40}
            />
          </label>
          <button type="submit" class="secondary">
            Open
          </button>
        </form>
      </search>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setCursors([]);
          setApplied(filters);
        }}
      >
        <label>
          Status
          <select value={filters.status} onChange={set('status')}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select value={filters.type} onChange={set('type')}>
            <option value="">Any</option>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Wallet id
          <input value={filters.walletId} onInput={set('walletId')} size={36} />
        </label>
        <label>
          From
          <input type="date" value={filters.createdFrom} onInput={set('createdFrom')} />
        </label>
        <label>
          To
          <input type="date" value={filters.createdTo} onInput={set('createdTo')} />
        </label>
        <button type="submit">Filter</button>
      </form>
      <Loading load={load} />
      {load.data && (
        <>
          <Table
            columns={[
              'Created',
              'Type',
              'Status',
              { label: 'Sent', num: true },
              { label: 'Received', num: true },
              'Record',
            ]}
            rows={load.data.data}
            empty="No payments on this page."
            row={(t) => (
              <tr key={t.transactionRecordId}>
                <td>{when(t.createdAt)}</td>
                <td>{t.type}</td>
                <td>
                  <Status value={t.status} />
                </td>
                <td class="num">{`${t.sendAmount ?? ''} ${t.sendCurrency ?? ''}`}</td>
                <td class="num">{`${t.receiveAmount ?? ''} ${t.receiveCurrency ?? ''}`}</td>
                <td class="mono">
                  <a href={`#/payments/${t.transactionRecordId}`}>{t.transactionRecordId}</a>
                </td>
              </tr>
            )}
          />
          <Pager cursors={cursors} setCursors={setCursors} pagination={load.data.pagination} />
        </>
      )}
    </Page>
  );
}

type Transaction = Schemas['Transaction'];

/** The record's moves, from what the record keeps: created, the ledger's answer, completion or failure. */
function timelineOf(t: Transaction): { at: string; what: string }[] {
  const steps = [{ at: t.createdAt, what: `Accepted (${t.type}), ${t.sendAmount} ${t.sendCurrency}` }];
  if (t.stellarTxHash) steps.push({ at: t.updatedAt, what: `On the ledger: ${t.stellarTxHash}` });
  if (t.status === 'failed')
    steps.push({ at: t.updatedAt, what: `Failed: ${t.errorCode ?? ''} ${t.failureReason ?? ''}`.trim() });
  if (t.completedAt) steps.push({ at: t.completedAt, what: 'Completed' });
  else if (t.status !== 'failed') steps.push({ at: t.updatedAt, what: `Now ${t.status}` });
  if (t.refundTxHash) steps.push({ at: t.updatedAt, what: `Refunded: ${t.refundTxHash}` });
  return steps;
}

export function Payment({ id }: { id: string }) {
  const load = useLoad(
    async () =>
      ok(await api().GET('/transactions/{transactionId}', { params: { path: { transactionId: id } } })),
    [id],
  );
  const t = load.data;
  return (
    <Page title="Payment">
      <Back to="payments" label="All payments" />
      <Loading load={load} />
      {t && (
        <>
          <div class="card">
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <Status value={t.status} />
              </dd>
              <dt>Record id</dt>
              <dd class="mono">{t.transactionRecordId}</dd>
              <dt>Your transactionId</dt>
              <dd class="mono">{t.idempotencyKey ?? '—'}</dd>
              <dt>Type</dt>
              <dd>{t.type}</dd>
              <dt>Sent</dt>
              <dd>{`${t.sendAmount} ${t.sendCurrency}`}</dd>
              <dt>Received</dt>
              <dd>{t.receiveAmount ? `${t.receiveAmount} ${t.receiveCurrency}` : '—'}</dd>
              <dt>Fee</dt>
              <dd>{t.fee ? `${t.fee} ${t.feeCurrency ?? ''}` : '—'}</dd>
              <dt>Rate</dt>
              <dd>{t.exchangeRate ?? '—'}</dd>
              <dt>From wallet</dt>
              <dd class="mono">
                <a href={`#/wallets/${t.walletId}`}>{t.walletId}</a>
              </dd>
              <dt>Ledger transaction</dt>
              <dd class="mono">{t.stellarTxHash ?? '—'}</dd>
              {t.connectorName && (
                <>
                  <dt>Connector</dt>
                  <dd>{t.connectorName}</dd>
                  <dt>Quote</dt>
                  <dd class="mono">{t.quoteId ?? '—'}</dd>
                  <dt>Provider reference</dt>
                  <dd class="mono">{t.externalReference ?? '—'}</dd>
                </>
              )}
            </dl>
          </div>
          <h2>Timeline</h2>
          <ol class="timeline">
            {timelineOf(t).map((step) => (
              <li key={`${step.at}${step.what}`}>
                <strong>{when(step.at)}</strong> — {step.what}
              </li>
            ))}
          </ol>
        </>
      )}
    </Page>
  );
}
