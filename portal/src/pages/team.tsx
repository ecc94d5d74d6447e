import { useState } from 'preact/hooks';
import { api, ok, type PersonToken } from '../gateway.ts';
import { ACTIONS, FieldError, Loading, Page, Table, useAction, useLoad, when } from '../ui.tsx';

type Role = 'viewer' | 'developer' | 'owner';

/** The team (owners invite and remove people) and the audit log. The server refuses anyone else. */
export function Team({ token }: { token: PersonToken }) {
  const members = useLoad(async () => ok(await api().GET('/team/members')), []);
  const audit = useLoad(
    async () => ok(await api().GET('/team/audit-log', { params: { query: { limit: 50 } } })),
    [],
  );
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const action = useAction(() => {
    members.reload();
    audit.reload();
  });
  const invite = (e: Event) => {
    e.preventDefault();
    action.run(async () => {
      ok(await api().POST('/team/members', { body: { email, role } }));
      setEmail('');
    }, 'Invited.');
  };
  const remove = (memberId: string) =>
    action.run(
      async () => ok(await api().DELETE('/team/members/{memberId}', { params: { path: { memberId } } })),
      'Removed.',
    );
  return (
    <Page title="Team & audit">
      <p class="muted">
        Signed in as {token.email} ({token.role}).
      </p>
      <div class="card">
        <h2>Invite a person</h2>
        <form class="inline" onSubmit={invite}>
          <label>
            Email
            <input
              type="email"
              required
              value={email}
              onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
            />
            <FieldError problem={action.problem} field="email" />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value as Role)}>
              <option value="viewer">viewer: reads</option>
              <option value="developer">developer: reads and changes</option>
              <option value="owner">owner: everything, and the team</option>
            </select>
          </label>
          <button type="submit">Invite</button>
        </form>
        {action.outcome}
      </div>
      <h2>Members</h2>
      <Loading load={members} />
      {members.data && (
        <Table
          columns={['Email', 'Role', 'Invited by', 'Since', ACTIONS]}
          rows={members.data.data}
          empty="Nobody yet."
          row={(m) => (
            <tr key={m.memberId}>
              <td>{m.email}</td>
              <td>{m.role}</td>
              <td>{m.invitedBy ?? '—'}</td>
              <td>{when(m.createdAt)}</td>
              <td>
                {m.email !== token.email && (
                  <button type="button" class="danger" onClick={() => remove(m.memberId)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          )}
        />
      )}
      <h2>Audit log</h2>
      <Loading load={audit} />
      {audit.data && (
        <Table
          columns={['When', 'Who', 'What', { label: 'Status', num: true }, 'From']}
          rows={audit.data.data}
          empty="Nothing yet."
          row={(a) => (
            <tr key={`${a.at}${a.requestId}`}>
              <td>{when(a.at)}</td>
              <td>{`${a.actor} (${a.role})`}</td>
              <td class="mono">{a.action}</td>
              <td class="num">{a.status}</td>
              <td class="mono">{a.sourceIp}</td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}
