// Small shared pieces: loading a page's data in one call, showing a problem next to the field it names,
// statuses, amounts and dates.
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiProblem } from './gateway.ts';

export type Load<T> = { data?: T; problem?: ApiProblem | Error; loading: boolean; reload(): void };

/** Runs `fetcher` when `deps` change; the page shows `data`, or the problem. */
export function useLoad<T>(fetcher: () => Promise<T>, deps: unknown[]): Load<T> {
  const [state, setState] = useState<{ data?: T; problem?: ApiProblem | Error; loading: boolean }>({
    loading: true,
  });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fetcher().then(
      (data) => live && setState({ data, loading: false }),
      (problem: Error) => live && setState({ problem, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { ...state, reload };
}

export function Problem({ problem }: { problem?: Error | undefined }) {
  if (!problem) return null;
  const detail =
    problem instanceof ApiProblem ? `${problem.title}: ${problem.detail ?? ''}` : problem.message;
  const requestId = problem instanceof ApiProblem ? problem.requestId : undefined;
  const errors = problem instanceof ApiProblem ? problem.errors : [];
  return (
    <div class="problem" role="alert">
      {detail}
      {requestId && <span class="muted"> (request {requestId})</span>}
      {errors.length > 0 && (
        <ul>
          {errors.map((e) => (
            <li key={e.field}>{`${e.field} ${e.message}`}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The message the API gave for `field`, shown next to it. */
export function FieldError({ problem, field }: { problem?: Error | undefined; field: string }) {
  const message = problem instanceof ApiProblem ? problem.fieldError(field) : undefined;
  return message ? <span class="field-error">{`${field} ${message}`}</span> : null;
}

export const Status = ({ value }: { value: string | null | undefined }) => (
  <span class={`status ${value ?? ''}`}>{value ?? '—'}</span>
);

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString('en-GB') : '—');

export function Page({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} — business portal`;
  }, [title]);
  return (
    <>
      <h1>{title}</h1>
      {children}
    </>
  );
}

export function Loading({ load }: { load: { loading: boolean; problem?: Error | undefined } }) {
  if (load.problem) return <Problem problem={load.problem} />;
  return load.loading ? <p aria-live="polite">Loading…</p> : null;
}

/** A column: its label, right-aligned for numbers, or read only by screen readers (an actions column). */
export type Column = string | { label: string; num?: true; hidden?: true };

/** A table of `rows`, one `<tr>` each from `row`, or one line saying there is nothing. */
export function Table<T>(props: { columns: Column[]; rows: T[]; empty: string; row(item: T): JSX.Element }) {
  const { columns, rows, empty, row } = props;
  return (
    <table>
      <thead>
        <tr>
          {columns.map((c) => {
            const { label, num, hidden } = typeof c === 'string' ? { label: c } : c;
            return (
              <th key={label} class={num ? 'num' : undefined}>
                {hidden ? <span class="skip">{label}</span> : label}
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map(row)}
        {rows.length === 0 && (
          <tr>
            <td colSpan={columns.length}>{empty}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}

/** A button's or form's action: its problem (shown by field and in full), or what it did. */
export function useAction(after?: () => void) {
  const [problem, setProblem] = useState<Error>();
  const [notice, setNotice] = useState('');
  const run = async (what: () => Promise<unknown>, done = '') => {
    setProblem(undefined);
    setNotice('');
    try {
      await what();
      setNotice(done);
      after?.();
    } catch (error) {
      setProblem(error as Error);
    }
  };
  const outcome = (
    <>
      <Problem problem={problem} />
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
    </>
  );
  return { problem, run, outcome };
}

export const ACTIONS: Column = { label: 'Actions', hidden: true };

export const Back = ({ to, label }: { to: string; label: string }) => (
  <p>
    <a href={`#/${to}`}>← {label}</a>
  </p>
);
