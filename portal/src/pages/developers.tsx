import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ok } from '../gateway.ts';
import {
  ACTIONS,
  Field,
  Loading,
  Page,
  Pager,
  Status,
  Table,
  useAction,
  useForm,
  useLoad,
  when,
} from '../ui.tsx';

/** A secret the API answered once: shown in a dialog with a copy button, and forgotten when it closes. */
function SecretDialog({ what, secret, onClose }: { what: string; secret: string; onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [copied, setCopied] = useState('');
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('Copied.'),
      () => setCopied('Could not copy: select it and copy it yourself.'),
    );
  return (
    <dialog ref={dialog} aria-labelledby="secret-title" onClose={onClose}>
      <h2 id="secret-title">{`Your new ${what}`}</h2>
      <p>It is shown this once: copy it now and keep it somewhere safe. It is stored only as a hash.</p>
      <p class="secret">{secret}</p>
      <p class="actions">
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
          Done
        </button>
        {copied && <span role="status">{copied}</span>}
      </p>
    </dialog>
  );
}

type Kind = 'apiKey' | 'client';
const KINDS: Record<Kind, { one: string; secret: string }> = {
  apiKey: { one: 'API key', secret: 'API key' },
  client: { one: 'client', secret: 'client secret' },
};

/** The tenant's keys and clients (prefix and last four, never a secret), a new one, a revocation. */
function Credentials({ onChange }: { onChange(): void }) {
  const load = useLoad(
    async () => ok(await api().GET('/credentials', { params: { query: { limit: 100 } } })),
    [],
  );
  const { form, setForm, bind } = useForm<{ kind: Kind; name: string }>('new-credential', {
    kind: 'apiKey',
    name: '',
  });
  const [made, setMade] = useState<{ kind: Kind; secret: string }>();
  const action = useAction(() => {
    load.reload();
    onChange();
  });
  const make = (e: Event) => {
    e.preventDefault();
    const { kind, name } = form;
    action.run(async () => {
      const body = { kind, ...(name.trim() ? { name } : {}) };
      setMade({ kind, secret: ok(await api().POST('/credentials', { body })).secret });
      setForm({ kind, name: '' });
    });
  };
  const revoke = (kind: Kind, credentialId: string) => {
    const one = KINDS[kind].one;
    if (!confirm(`Revoke this ${one}? Requests with it are refused at once; it cannot be undone.`)) return;
    action.run(
      async () =>
        ok(await api().DELETE('/credentials/{credentialId}', { params: { path: { credentialId } } })),
      `The ${one} is revoked.`,
    );
  };
  return (
    <section aria-labelledby="credentials-title">
      <h2 id="credentials-title">API keys and clients</h2>
      <form class="inline" onSubmit={make}>
        <Field label="Kind" field="kind" problem={action.problem} bind={bind('kind')}>
          <option value="apiKey">API key (x-service-auth)</option>
          <option value="client">Client (POST /auth/token)</option>
        </Field>
        <Field
          label="Name (optional)"
          field="name"
          problem={action.problem}
          bind={bind('name')}
          maxLength={64}
        />
        <button type="submit">Make it</button>
      </form>
      {action.outcome}
      {made && (
        <SecretDialog
          what={KINDS[made.kind].secret}
          secret={made.secret}
          onClose={() => setMade(undefined)}
        />
      )}
      <Loading load={load} />
      {load.data && (
        <Table
          columns={['Kind', 'Id and secret', 'Name', 'Status', 'Created', ACTIONS]}
          rows={load.data.data}
          empty="No API keys or clients yet."
          row={(c) => (
            <tr key={c.id}>
              <td>{KINDS[c.kind].one}</td>
              <td class="mono">
                {c.kind === 'client' && <div>{c.id}</div>}
                {`${c.prefix}…${c.last4 ?? ''}`}
                {c.kind === 'apiKey' && <div class="muted">{`id ${c.id}`}</div>}
              </td>
              <td>{c.name ?? '—'}</td>
              <td>
                <Status value={c.status} />
                {c.revokedAt && <div class="muted">{when(c.revokedAt)}</div>}
              </td>
              <td>
                {when(c.createdAt)}
                <div class="muted">{c.createdBy ?? 'platform team'}</div>
              </td>
              <td>
                {c.status === 'active' && (
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Revoke ${KINDS[c.kind].one} ${c.last4 ?? c.id}`}
                    onClick={() => revoke(c.kind, c.id)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          )}
        />
      )}
    </section>
  );
}

/** The tenant's requests that changed something or failed, newest first, a page at a time. */
function RequestLog({ version }: { version: number }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const load = useLoad(
    async () =>
      ok(
        await api().GET('/request-log', {
          params: { query: { limit: 25, ...(cursor ? { cursor } : {}) } },
        }),
      ),
    [cursor, version],
  );
  return (
    <section aria-labelledby="request-log-title">
      <h2 id="request-log-title">Request log</h2>
      <p class="muted">
        The last 7 days’ requests that changed something or failed, by your applications and your team. Reads
        that succeeded are not kept.
      </p>
      <Loading load={load} />
      {load.data && (
        <>
          <Table
            columns={[
              'When',
              'Request',
              { label: 'Status', num: true },
              { label: 'ms', num: true },
              'Caller',
            ]}
            rows={load.data.data}
            empty="No requests kept yet."
            row={(r) => (
              <tr key={r.requestId}>
                <td>{when(r.at)}</td>
                <td class="mono">
                  {`${r.method} ${r.path}`}
                  <div class="muted">{r.requestId}</div>
                </td>
                <td class="num">{r.status}</td>
                <td class="num">{r.durationMs}</td>
                <td>
                  {r.caller.kind === 'person'
                    ? `${r.caller.id} (${r.caller.role})`
                    : `application, key ${r.caller.keyId ?? '—'}`}
                </td>
              </tr>
            )}
          />
          <Pager
            cursors={cursors}
            setCursors={setCursors}
            pagination={load.data.pagination}
            labels={['Newer', 'Older']}
          />
        </>
      )}
    </section>
  );
}

/** API keys and clients (owners make and revoke them; the server says so to anyone else) and the request log. */
export function Developers() {
  const [version, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);
  return (
    <Page title="Developers">
      <p class="muted">
        An application calls the API with an API key (<code>x-service-auth</code>) and a client’s id and
        secret (<code>POST /auth/token</code>). Secrets are shown once, when made.
      </p>
      <Credentials onChange={changed} />
      <RequestLog version={version} />
    </Page>
  );
}
