// Small shared pieces: loading a page's data in one call, showing a problem next to the field it names,
// keeping a form's draft across a sign-in, statuses, amounts and dates.
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiProblem } from './gateway.ts';

/**
 * Forms' drafts, kept when the session ends mid-form: each form on the page registers how to read its
 * values; a 401 (the session, or the token minted from it) writes them to sessionStorage (this tab only,
 * gone when it closes) and asks for a sign-in, after which the same page takes them back, once. Forms
 * hold no secret: sign-in codes are not drafts, and secrets the API answers are never in a form.
 */
const DRAFTS = 'portal.drafts';
const registered = new Map<string, () => unknown>();
export const SESSION_ENDED = 'portal:session-ended';

const keptDrafts = (): Record<string, unknown> => JSON.parse(sessionStorage.getItem(DRAFTS) ?? '{}');

/** Keeps every registered form's values and asks the app to sign in again. */
export function sessionEnded(): void {
  const kept = keptDrafts();
  for (const [key, read] of registered) kept[key] = read();
  sessionStorage.setItem(DRAFTS, JSON.stringify(kept));
  dispatchEvent(new Event(SESSION_ENDED));
}

function takeDraft<T>(key: string): T | undefined {
  const kept = keptDrafts();
  const draft = kept[key] as T | undefined;
  if (draft === undefined) return undefined;
  delete kept[key];
  sessionStorage.setItem(DRAFTS, JSON.stringify(kept));
  return draft;
}

/** A form's values, kept across a sign-in when the session ends mid-form (`name`: the form, on this page). */
export function useDraft<T>(name: string, initial: T | (() => T)): [T, (values: T) => void] {
  const key = `${location.hash}|${name}`;
  const [values, setValues] = useState<T>(
    () => takeDraft<T>(key) ?? (initial instanceof Function ? initial() : initial),
  );
  const current = useRef(values);
  current.current = values;
  useEffect(() => {
    registered.set(key, () => current.current);
    return () => {
      registered.delete(key);
    };
  }, [key]);
  return [values, setValues];
}

/** What a form control needs of one of its form's values: the value, and the handler that changes it. */
export interface Binding {
  value: string;
  onInput(e: Event): void;
}

/** A form's values kept as a draft (useDraft), and `bind(member)`: a control's binding to one of them. */
export function useForm<T extends Record<string, string>>(name: string, initial: T | (() => T)) {
  const [form, setForm] = useDraft<T>(name, initial);
  const bind = (member: keyof T & string): Binding => ({
    value: form[member] ?? '',
    onInput: (e: Event) => setForm({ ...form, [member]: (e.target as HTMLInputElement).value }),
  });
  return { form, setForm, bind };
}

const endedSession = (error: unknown) => error instanceof ApiProblem && error.status === 401;

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
      (problem: Error) => {
        if (endedSession(problem)) return sessionEnded();
        if (live) setState({ problem, loading: false });
      },
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
  // The box scrolls sideways on a narrow screen; the page itself never does. It takes the keyboard's
  // focus so that it can be scrolled without a mouse (WCAG 2.1.1).
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <div class="table-box" tabIndex={0}>
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
    </div>
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
      if (endedSession(error)) return sessionEnded();
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

/** A labelled input (or a select, given options) whose problem, the API's for `field`, is shown next to it. */
export function Field(props: {
  label: string;
  field: string;
  problem: Error | undefined;
  bind: Binding;
  children?: ComponentChildren;
  date?: boolean;
  maxLength?: number;
}) {
  const { label, field, problem, bind, children, date, maxLength } = props;
  const { value, onInput } = bind;
  const control = children ? (
    <select value={value} onChange={onInput}>
      {children}
    </select>
  ) : date ? (
    <input type="date" value={value} onInput={onInput} />
  ) : (
    <input value={value} onInput={onInput} maxLength={maxLength} />
  );
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is an input or a select, chosen above.
    <label>
      {label}
      {control}
      <FieldError problem={problem} field={field} />
    </label>
  );
}

export const ACTIONS: Column = { label: 'Actions', hidden: true };

export const Back = ({ to, label }: { to: string; label: string }) => (
  <p>
    <a href={`#/${to}`}>← {label}</a>
  </p>
);

/** Cursor paging: the cursors walked so far (the last is the page shown), back one or on to the next. */
export function Pager(props: {
  cursors: string[];
  setCursors(cursors: string[]): void;
  pagination: { hasMore: boolean; nextCursor: string | null };
  labels?: [string, string];
}) {
  const { cursors, setCursors, pagination } = props;
  const [back, on] = props.labels ?? ['Previous', 'Next'];
  return (
    <div class="pager">
      <button
        type="button"
        class="secondary"
        disabled={cursors.length === 0}
        onClick={() => setCursors(cursors.slice(0, -1))}
      >
        {back}
      </button>
      <button
        type="button"
        class="secondary"
        disabled={!pagination.hasMore}
        onClick={() => setCursors([...cursors, pagination.nextCursor ?? ''])}
      >
        {on}
      </button>
    </div>
  );
}
