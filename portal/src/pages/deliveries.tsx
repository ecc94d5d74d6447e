// Webhook deliveries as a table, each with every attempt (answer, duration, when), the body sent and a
// Resend: a webhook's page lists its own, a payment's page those about its record (whichever webhook).
import { useEffect, useRef } from 'preact/hooks';
import { api, ok, type Schemas } from '../gateway.ts';
import { ACTIONS, type Column, type Load, Status, Table, useAction, when } from '../ui.tsx';

type Delivery = Schemas['WebhookDelivery'];

/** How often, and how many times, a page with a pending delivery reads again: its attempt is seconds away. */
const REFRESH_MS = 1500;
const REFRESHES = 20;

/**
 * Reads the deliveries again while one is pending, until REFRESHES reads in a row changed nothing (a
 * receiver that is down keeps its delivery pending for hours).
 */
function useRefreshWhilePending(load: Load<{ data: Delivery[] }>) {
  const idle = useRef({ reads: 0, seen: '' });
  const deliveries = load.data?.data ?? [];
  const pending = deliveries.some((d) => d.status === 'pending');
  useEffect(() => {
    const seen = deliveries.map((d) => `${d.id}:${d.status}:${d.attempts.length}`).join();
    idle.current = seen === idle.current.seen ? { reads: idle.current.reads + 1, seen } : { reads: 0, seen };
    if (!pending || idle.current.reads >= REFRESHES) return;
    const timer = setTimeout(load.reload, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [load.data]);
}

/** The body as sent, laid out to be read (the bytes sent are one line of JSON). */
function BodySent({ body }: { body: string }) {
  let shown = body;
  try {
    shown = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    // not JSON: shown as it was sent
  }
  return (
    <details>
      <summary>Body sent</summary>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long body scrolls in its box, and a keyboard must reach it to scroll it (axe's scrollable-region-focusable). */}
      <pre class="body" tabIndex={0}>
        {shown}
      </pre>
    </details>
  );
}

export function Deliveries({
  load,
  empty,
  withEndpoint = false,
}: {
  load: Load<{ data: Delivery[] }>;
  empty: string;
  /** Name each delivery's webhook (a page of several webhooks' deliveries). */
  withEndpoint?: boolean;
}) {
  useRefreshWhilePending(load);
  const action = useAction(load.reload);
  const resend = (d: Delivery) =>
    action.run(
      async () =>
        ok(
          await api().POST('/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
            params: { path: { webhookId: d.webhookId, deliveryId: d.id } },
          }),
        ),
      'Queued again.',
    );
  const columns: Column[] = [
    'Event',
    ...(withEndpoint ? ['Webhook'] : []),
    'Status',
    'Attempts (answer, duration, when)',
    'Next attempt',
    ACTIONS,
  ];
  return (
    <>
      {action.outcome}
      {load.data && (
        <Table
          columns={columns}
          rows={load.data.data}
          empty={empty}
          row={(d) => (
            <tr key={d.id}>
              <td>
                {d.eventType}
                <div class="mono muted">{d.eventId}</div>
                <div class="muted">{`Created ${when(d.createdAt)}`}</div>
              </td>
              {withEndpoint && (
                <td class="mono">
                  <a href={`#/webhooks/${d.webhookId}`}>{d.webhookId}</a>
                </td>
              )}
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
                {d.attempts.length === 0 && <span class="muted">None yet</span>}
                <BodySent body={d.body} />
              </td>
              <td>{when(d.nextAttemptAt)}</td>
              <td>
                <button type="button" class="secondary" onClick={() => resend(d)}>
                  Resend
                </button>
              </td>
            </tr>
          )}
        />
      )}
    </>
  );
}
