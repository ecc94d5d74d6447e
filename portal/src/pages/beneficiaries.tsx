import { useState } from 'preact/hooks';
import { api, ok } from '../gateway.ts';
import { FieldError, Loading, Page, Table, useAction, useLoad, when } from '../ui.tsx';

const blank = { firstName: '', lastName: '', email: '' };

/** Beneficiaries, and a new one through the API's own rules (its errors shown by the field they name). */
export function Beneficiaries() {
  const load = useLoad(
    async () => ok(await api().GET('/beneficiaries', { params: { query: { limit: 100 } } })),
    [],
  );
  const [form, setForm] = useState(blank);
  const action = useAction(load.reload);
  const set = (name: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [name]: (e.target as HTMLInputElement).value });
  const create = (e: Event) => {
    e.preventDefault();
    action.run(async () => {
      const individual = {
        firstName: form.firstName,
        lastName: form.lastName,
        ...(form.email ? { email: form.email } : {}),
      };
      ok(await api().POST('/beneficiaries', { body: { individual } }));
      setForm(blank);
    }, 'Added.');
  };
  const field = (name: keyof typeof form, label: string) => (
    <label>
      {label}
      <input value={form[name]} onInput={set(name)} />
      <FieldError problem={action.problem} field={`individual.${name}`} />
    </label>
  );
  return (
    <Page title="Beneficiaries">
      <div class="card">
        <h2>Add a person</h2>
        <form class="inline" onSubmit={create}>
          {field('firstName', 'First name')}
          {field('lastName', 'Last name')}
          {field('email', 'Email (notices)')}
          <button type="submit">Add</button>
        </form>
        {action.outcome}
      </div>
      <Loading load={load} />
      {load.data && (
        <Table
          columns={['Name', 'Kind', 'Id', 'Created']}
          rows={load.data.data}
          empty="No beneficiaries yet."
          row={(b) => (
            <tr key={b.id}>
              <td>
                {'individual' in b && b.individual
                  ? `${b.individual.firstName} ${b.individual.lastName}`
                  : 'business' in b && b.business
                    ? b.business.registeredName
                    : '—'}
              </td>
              <td>{b.kind}</td>
              <td class="mono">{b.id}</td>
              <td>{when(b.createdAt)}</td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}
