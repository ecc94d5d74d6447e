import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../gateway.ts';
import { ACTIONS, Back, FieldError, Loading, Page, Status, Table, useAction, useLoad, when } from '../ui.tsx';
import { Deliveries } from './deliveries.tsx';

/** A signed `webhook.test` event to the endpoint, through the same delivery path as every event. */
const sendTestEvent = async (webhookId: string) =>
  ok(await api().POST('/webhooks/{webhookId}/test', { params: { path: { webhookId } } }));

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
  const test = (w: Schemas['Webhook']) =>
    action.run(
      () => sendTestEvent(w.id),
      `Test event queued to ${w.url}: open the endpoint to see its attempts.`,
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
                  <div class="actions">
                    <button type="button" class="secondary" onClick={() => test(w)}>
                      Send test event
                    </button>
                    <button type="button" class="danger" onClick={() => deactivate(w.id)}>
                      Deactivate
                    </button>
                  </div>
                )}
              </td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}

/** One endpoint's deliveries, each with every attempt (answer, duration, when) and the body sent. */
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
  const test = () =>
    action.run(() => sendTestEvent(id), 'Test event queued: its attempt shows below within seconds.');
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
          {webhook.data.status === 'active' && (
            <p>
              <button type="button" class="secondary" onClick={test}>
                Send test event
              </button>
            </p>
          )}
          {action.outcome}
        </div>
      )}
      <h2>Deliveries</h2>
      <Loading load={deliveries} />
      <Deliveries load={deliveries} empty="No deliveries yet." />
    </Page>
  );
}
