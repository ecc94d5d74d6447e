import { useState } from 'preact/hooks';
import { api, ok } from '../gateway.ts';
import { Back, Loading, Page, Status, Table, useAction, useLoad, when } from '../ui.tsx';

export function Wallets() {
  const load = useLoad(
    async () => ok(await api().GET('/wallets', { params: { query: { limit: 100 } } })),
    [],
  );
  return (
    <Page title="Wallets">
      <Loading load={load} />
      {load.data && (
        <Table
          columns={['Name', 'Asset', 'KYC', 'Ledger account', { label: 'Balances', num: true }]}
          rows={load.data.data}
          empty="No wallets yet."
          row={(w) => (
            <tr key={w.id}>
              <td>
                <a href={`#/wallets/${w.id}`}>{w.walletName}</a>
              </td>
              <td>{w.assetCode}</td>
              <td>
                <Status value={w.status} />
              </td>
              <td>
                <Status value={w.activationStatus} />
              </td>
              <td class="num">
                {(w.balances ?? []).map((b) => (
                  <div key={b.assetCode}>{`${b.balance} ${b.assetCode}`}</div>
                ))}
              </td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}

const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86400_000).toISOString().slice(0, 10);

/** A wallet, its statement for a date range (running balances) with the API's own CSV, and the sandbox helpers. */
export function Wallet({ id, sandbox }: { id: string; sandbox: boolean }) {
  const wallet = useLoad(
    async () => ok(await api().GET('/wallets/{walletId}', { params: { path: { walletId: id } } })),
    [id],
  );
  const [range, setRange] = useState({ startDate: daysAgo(30), endDate: today() });
  const [shown, setShown] = useState(range);
  const assetCode = wallet.data?.assetCode;
  const query = { walletId: id, assetCode: assetCode ?? '', ...shown, limit: 100 };
  const statement = useLoad(async () => {
    if (!assetCode) return undefined;
    return ok(await api().GET('/statements/transactions', { params: { query } }));
  }, [id, assetCode, shown]);
  const action = useAction(() => {
    wallet.reload();
    statement.reload();
  });
  const act = action.run;
  const download = () =>
    act(async () => {
      const { data, error, response } = await api().GET('/statements/transactions', {
        params: { query },
        headers: { accept: 'text/csv' },
        parseAs: 'text',
      });
      if (error !== undefined || data === undefined) return ok({ error, response });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([data as string], { type: 'text/csv' }));
      link.download = `statement-${id}-${assetCode}-${shown.startDate}-${shown.endDate}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    }, 'Statement downloaded.');
  const fund = () =>
    act(
      async () =>
        ok(
          await api().POST('/sandbox/wallets/{walletId}/fund', {
            params: { path: { walletId: id }, header: { 'Idempotency-Key': crypto.randomUUID() } },
            body: { assetCode: assetCode ?? 'USDC', amount: 100 },
          }),
        ),
      `Funded 100 ${assetCode}.`,
    );
  const kyc = (decision: 'Verified' | 'Rejected') =>
    act(
      async () =>
        ok(
          await api().POST('/sandbox/wallets/{walletId}/kyc', {
            params: { path: { walletId: id } },
            body: { decision },
          }),
        ),
      `KYC set to ${decision}.`,
    );
  const w = wallet.data;
  return (
    <Page title={w ? `Wallet: ${w.walletName}` : 'Wallet'}>
      <Back to="wallets" label="All wallets" />
      <Loading load={wallet} />
      {w && (
        <div class="card">
          <dl class="facts">
            <dt>Wallet id</dt>
            <dd class="mono">{w.id}</dd>
            <dt>KYC</dt>
            <dd>
              <Status value={w.status} />
            </dd>
            <dt>Ledger account</dt>
            <dd class="mono">{w.publicKey}</dd>
            <dt>Balances</dt>
            <dd>{(w.balances ?? []).map((b) => `${b.balance} ${b.assetCode}`).join(', ') || '—'}</dd>
          </dl>
          {sandbox && (
            <form class="inline" onSubmit={(e) => e.preventDefault()} aria-label="Sandbox helpers">
              <button type="button" class="secondary" onClick={fund}>
                Fund 100 {w.assetCode} (test)
              </button>
              {!w.ownAccount && (
                <>
                  <button type="button" class="secondary" onClick={() => kyc('Verified')}>
                    Set KYC Verified (test)
                  </button>
                  <button type="button" class="danger" onClick={() => kyc('Rejected')}>
                    Set KYC Rejected (test)
                  </button>
                </>
              )}
            </form>
          )}
        </div>
      )}
      {action.outcome}
      <h2>Statement</h2>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setShown(range);
        }}
      >
        <label>
          From
          <input
            type="date"
            value={range.startDate}
            onInput={(e) => setRange({ ...range, startDate: (e.target as HTMLInputElement).value })}
          />
        </label>
        <label>
          To
          <input
            type="date"
            value={range.endDate}
            onInput={(e) => setRange({ ...range, endDate: (e.target as HTMLInputElement).value })}
          />
        </label>
        <button type="submit">Show</button>
        <button type="button" class="secondary" onClick={download}>
          Download CSV
        </button>
      </form>
      <Loading load={statement} />
      {statement.data && (
        <>
          <p>
            Opening balance <strong>{statement.data.openingBalance}</strong>, closing balance{' '}
            <strong>{statement.data.closingBalance}</strong> {statement.data.assetCode}
          </p>
          <Table
            columns={[
              'Date',
              'Description',
              { label: 'Amount', num: true },
              { label: 'Balance', num: true },
              'Payment',
            ]}
            rows={statement.data.data}
            empty="No movements in this range."
            row={(line) => (
              <tr key={line.rowId}>
                <td>{when(line.date)}</td>
                <td>{line.description}</td>
                <td class="num">{`${line.direction === 'debit' ? '−' : '+'}${line.amount}`}</td>
                <td class="num">{line.runningBalance}</td>
                <td class="mono">
                  {line.transactionRecordId ? (
                    <a
                      href={`#/payments/${line.transactionRecordId}`}
                    >{`payment ${line.transactionRecordId.slice(0, 8)}`}</a>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            )}
          />
        </>
      )}
    </Page>
  );
}
