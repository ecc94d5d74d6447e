import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../gateway.ts';
import { Back, Loading, Page, Pager, Status, Table, useLoad, when } from '../ui.tsx';
import { Deliveries } from './deliveries.tsx';

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
type Step = Schemas['TimelineStep'];

/** What each event of a record's lifecycle means, in words. */
function whatHappened(step: Step, t: Transaction): string {
  switch (step.event) {
    case 'accepted':
      return t.type === 'provider_onramp' ? 'Receipt arrived' : 'Accepted';
    case 'ledger_landed':
      return t.connectorId ? 'Ledger leg landed' : 'Landed on the ledger';
    case 'ledger_refused':
      return 'Refused by the ledger';
    case 'provider_rejected':
      return 'Refused by the provider';
    case 'owed_paid':
      return t.type === 'offramp' ? 'Refund paid on the ledger' : 'Wallet credited on the ledger';
    case 'owed_refused':
      return 'Owed payment refused by the ledger: paid again later';
    case null:
    case undefined:
      return 'Now';
    default:
      return `Provider reported ${step.event.replace('provider_', '')}`;
  }
}

function Timeline({ t }: { t: Transaction }) {
  return (
    <ol class="timeline">
      {(t.timeline ?? []).map((step) => (
        <li key={`${step.at}${step.event}${step.state}`}>
          <strong>{when(step.at)}</strong> — {whatHappened(step, t)} <Status value={step.status} />
          {step.state !== step.status && <span class="muted">{` (${step.state})`}</span>}
          {step.errorCode && <span class="field-error">{` ${step.errorCode}`}</span>}
          {step.ledgerTransaction && (
            <div class="mono muted">
              {`Transaction ${step.ledgerTransaction.hash ?? '—'}`}
              {step.ledgerTransaction.ledger !== null && ` · ledger ${step.ledgerTransaction.ledger}`}
              {step.ledgerTransaction.fee !== null && ` · network fee ${step.ledgerTransaction.fee} XLM`}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}

/** A payment's page: its record with its timeline, and the webhook deliveries about it: two calls. */
export function Payment({ id }: { id: string }) {
  const load = useLoad(
    async () =>
      ok(await api().GET('/transactions/{transactionId}', { params: { path: { transactionId: id } } })),
    [id],
  );
  const t = load.data;
  const recordId = t?.transactionRecordId;
  const deliveries = useLoad(
    async () =>
      recordId
        ? ok(
            await api().GET('/webhooks/deliveries', {
              params: { query: { resourceId: recordId, limit: 50 } },
            }),
          )
        : { data: [], pagination: { nextCursor: null, hasMore: false } },
    [recordId],
  );
  // The ledger transaction that moved the payment: the first one a step landed.
  const landed = t?.timeline?.find((step) => step.event === 'ledger_landed')?.ledgerTransaction;
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
                {t.errorCode && (
                  <span class="field-error">{` ${t.errorCode}: ${t.failureReason ?? ''}`}</span>
                )}
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
              <dt>Ledger</dt>
              <dd>{landed?.ledger ?? '—'}</dd>
              <dt>Network fee</dt>
              <dd>{landed?.fee != null ? `${landed.fee} XLM (paid by the platform)` : '—'}</dd>
              {t.refundTxHash && (
                <>
                  <dt>Refund transaction</dt>
                  <dd class="mono">{t.refundTxHash}</dd>
                </>
              )}
            </dl>
          </div>
          {t.connectorName && (
            <div class="card">
              <h2>Ramp</h2>
              <dl class="facts">
                <dt>Connector</dt>
                <dd>{`${t.connectorName} (${t.method ?? ''}, ${t.destinationCountryIso ?? ''})`}</dd>
                <dt>Quote</dt>
                <dd class="mono">{t.quoteId ?? '—'}</dd>
                <dt>Quoted fee and rate</dt>
                <dd>{`${t.fee} ${t.feeCurrency}, rate ${t.exchangeRate ?? '—'}`}</dd>
                <dt>Provider reference</dt>
                <dd class="mono">{t.externalReference ?? '—'}</dd>
              </dl>
            </div>
          )}
          <h2>Timeline</h2>
          <Timeline t={t} />
          <h2>Webhook deliveries</h2>
          <Loading load={deliveries} />
          <Deliveries load={deliveries} empty="No webhook deliveries about this payment." withEndpoint />
        </>
      )}
    </Page>
  );
}
