import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../gateway.ts';
import { ACTIONS, Back, FieldError, Loading, Page, Status, Table, useAction, useLoad, when } from '../ui.tsx';

/** Registrations, a new one (its signing secret shown once), and deactivation. */
export function Webhooks() {
  const load = useLoad(
    async () => ok(await api().GET('/webhooks', { params: { query: { limit: 100 } } })),
    [],
  );
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('*');
  const [created, setCreated] = useState<Schemas['CreatedWebhook']>();
  const action = useAction(load.reload);
  const register = (e: Event) => {
    e.preventDefault();
    action.run(async () => {
      const list = events
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      setCreated(ok(await api().POST('/webhooks', { body: { url, events: list } })));
      setUrl('');
    });
  };
  const deactivate = (webhookId: string) =>
    action.run(
      async () => ok(await api().DELETE('/webhooks/{webhookId}', { params: { path: { webhookId } } })),
      'Deactivated.',
    );
  return (
    <Page title="Webhooks">
      <div class="card">
        <h2>Register an endpoint</h2>
        <form class="inline" onSubmit={register}>
          <label>
            URL
            <input
              type="url"
              required
              value={url}
              size={40}
              onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
            />
            <FieldError problem={action.problem} field="url" />
          </label>
          <label>
            Events (comma-separated, * for all)
            <input value={events} onInput={(e) => setEvents((e.target as HTMLInputElement).value)} />
            <FieldError problem={action.problem} field="events" />
          </label>
          <button type="submit">Register</button>
        </form>
        {action.outcome}
        {created && (
          <div class="notice" role="status">
            <p>Registered. Its signing secret is shown this once: store it now.</p>
            <p class="secret">{created.secret}</p>
          </div>
        )}
      </div>
      <Loading load={load} />
      {load.data && (
        <Table
          columns={['URL', 'Events', 'Status', 'Created', ACTIONS]}
          rows={load.data.data}
          empty="No endpoints registered."
          row={(w) => (
            <tr key={w.id}>
              <td class="mono">
                <a href={`#/webhooks/${w.id}`}>{w.url}</a>
              </td>
              <td>{w.events.join(', ')}</td>
              <td>
                <Status value={w.status} />
              </td>
              <td>{when(w.createdAt)}</td>
              <td>
                {w.status === 'active' && (
                  <button type="button" class="danger" onClick={() => deactivate(w.id)}>
                    Deactivate
                  </button>
                )}
              </td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}

/** One endpoint's deliveries, each with every attempt (answer, duration, when), and a resend. */
export function Webhook({ id }: { id: string }) {
  const path = { webhookId: id };
  const webhook = useLoad(
    async () => ok(await api().GET('/webhooks/{webhookId}', { params: { path } })),
    [id],
  );
  const deliveries = useLoad(
    async () =>
      ok(await api().GET('/webhooks/{webhookId}/deliveries', { params: { path, query: { limit: 50 } } })),
    [id],
  );
  const action = useAction(deliveries.reload);
  const resend = (deliveryId: string) =>
    action.run(
      async () =>
        ok(
          await api().POST('/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
            params: { path: { webhookId: id, deliveryId } },
          }),
        ),
      'Queued again.',
    );
  return (
    <Page title="Webhook endpoint">
      <Back to="webhooks" label="All endpoints" />
      <Loading load={webhook} />
      {webhook.data && (
        <div class="card">
          <dl class="facts">
            <dt>URL</dt>
            <dd class="mono">{webhook.data.url}</dd>
            <dt>Status</dt>
            <dd>
              <Status value={webhook.data.status} />
            </dd>
            <dt>Events</dt>
            <dd>{webhook.data.events.join(', ')}</dd>
          </dl>
        </div>
      )}
      {action.outcome}
      <h2>Deliveries</h2>
      <Loading load={deliveries} />
      {deliveries.data && (
        <Table
          columns={[
            'Event',
            'Status',
            'Attempts (answer, duration, when)',
            'Next attempt',
            'Created',
            ACTIONS,
          ]}
          rows={deliveries.data.data}
          empty="No deliveries yet."
          row={(d) => (
            <tr key={d.id}>
              <td>
                {d.eventType}
                <div class="mono muted">{d.eventId}</div>
              </td>
              <td>
                <Status value={d.status} />
              </td>
              <td>
                <ol class="attempts">
                  {d.attempts.map((a) => (
                    <li key={a.attempt}>
                      {`#${a.attempt}: ${a.statusCode ?? a.error ?? '—'}, ${a.latencyMs} ms, ${when(a.at)}`}
                      {a.responseExcerpt && <div class="mono muted">{a.responseExcerpt}</div>}
                    </li>
                  ))}
                </ol>
              </td>
              <td>{when(d.nextAttemptAt)}</td>
              <td>{when(d.createdAt)}</td>
              <td>
                <button type="button" class="secondary" onClick={() => resend(d.id)}>
                  Resend
                </button>
              </td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}
