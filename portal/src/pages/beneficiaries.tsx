import { api, ok, type Schemas } from '../gateway.ts';
import { Back, Field, Loading, Page, Status, Table, useAction, useForm, useLoad, when } from '../ui.tsx';

type Beneficiary = Schemas['BeneficiaryWithDestinations'];
type Destination = Schemas['PaymentDestination'];
type Form = Record<string, string>;

const blank = { firstName: '', lastName: '', email: '' };

const nameOf = (b: Schemas['Beneficiary'] | Beneficiary) =>
  'individual' in b && b.individual
    ? `${b.individual.firstName} ${b.individual.lastName}`
    : 'business' in b && b.business
      ? b.business.registeredName
      : '—';

/** Beneficiaries, and a new one through the API's own rules (its errors shown by the field they name). */
export function Beneficiaries() {
  const load = useLoad(
    async () => ok(await api().GET('/beneficiaries', { params: { query: { limit: 100 } } })),
    [],
  );
  const { form, setForm, bind } = useForm<Form>('new-beneficiary', blank);
  const action = useAction(load.reload);
  const create = (e: Event) => {
    e.preventDefault();
    action.run(async () => {
      const individual = {
        firstName: form.firstName ?? '',
        lastName: form.lastName ?? '',
        ...(form.email ? { email: form.email } : {}),
      };
      ok(await api().POST('/beneficiaries', { body: { individual } }));
      setForm(blank);
    }, 'Added.');
  };
  const field = (name: string, label: string) => (
    <Field label={label} field={`individual.${name}`} problem={action.problem} bind={bind(name)} />
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
          columns={['Name', 'Kind', 'Classification', 'Created']}
          rows={load.data.data}
          empty="No beneficiaries yet."
          row={(b) => (
            <tr key={b.id}>
              <td>
                <a href={`#/beneficiaries/${b.id}`}>{nameOf(b)}</a>
              </td>
              <td>{b.kind}</td>
              <td>{b.classification}</td>
              <td>{when(b.createdAt)}</td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}

const ID_TYPES = ['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENSE'];
const MEMBERS = {
  individual: [
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
    ['dateOfBirth', 'Date of birth'],
    ['idType', 'ID type'],
    ['idNumber', 'ID number'],
    ['idCountryIsoCode2', 'ID country (2 letters)'],
    ['email', 'Email'],
    ['mobile', 'Mobile (+E.164)'],
  ],
  business: [
    ['registeredName', 'Registered name'],
    ['registrationNumber', 'Registration number'],
    ['countryIsoCode2', 'Country (2 letters)'],
    ['email', 'Email'],
    ['mobile', 'Mobile (+E.164)'],
  ],
} as const;

/** The beneficiary's details as the form holds them: every member a string, '' for absent. */
function formOf(b: Beneficiary): Form {
  const details: Record<string, unknown> = (b.kind === 'individual' ? b.individual : b.business) ?? {};
  return Object.fromEntries(MEMBERS[b.kind].map(([name]) => [name, String(details[name] ?? '')]));
}

/** Edits a beneficiary as a merge patch of what changed ('' removes a member): the API's rules decide. */
function EditBeneficiary({ beneficiary, onSaved }: { beneficiary: Beneficiary; onSaved(): void }) {
  const kind = beneficiary.kind;
  const { form, bind } = useForm<Form>('edit', () => formOf(beneficiary));
  const action = useAction(onSaved);
  const save = (e: Event) => {
    e.preventDefault();
    const before = formOf(beneficiary);
    const changed = Object.fromEntries(
      Object.entries(form)
        .filter(([name, value]) => value !== before[name])
        .map(([name, value]) => [name, value === '' ? null : value]),
    );
    action.run(
      async () =>
        ok(
          await api().PATCH('/beneficiaries/{beneficiaryId}', {
            params: { path: { beneficiaryId: beneficiary.id } },
            body: { [kind]: changed },
          }),
        ),
      'Saved.',
    );
  };
  return (
    <div class="card">
      <h2>Edit</h2>
      <form class="inline" onSubmit={save}>
        {MEMBERS[kind].map(([name, label]) => (
          <Field
            key={name}
            label={label}
            field={`${kind}.${name}`}
            problem={action.problem}
            bind={bind(name)}
            date={name === 'dateOfBirth'}
          >
            {name === 'idType' && [
              <option key="" value="">
                —
              </option>,
              ...ID_TYPES.map((t) => <option key={t}>{t}</option>),
            ]}
          </Field>
        ))}
        <button type="submit">Save</button>
      </form>
      {action.outcome}
    </div>
  );
}

const METHOD_FIELDS = {
  BANK: [
    ['accountNumber', 'Account number'],
    ['bankCode', 'Bank or branch code'],
    ['accountHolderName', 'Account holder'],
    ['bankName', 'Bank name (optional)'],
  ],
  MOBILE_MONEY: [
    ['mobileNumber', 'Mobile number (+E.164)'],
    ['provider', 'Provider'],
  ],
  CRYPTO: [
    ['networkName', 'Network'],
    ['assetSymbol', 'Asset'],
    ['walletAddress', 'Stellar account'],
  ],
} as const;
type Method = keyof typeof METHOD_FIELDS;
const newDestination: Form = { method: 'CRYPTO', countryIsoCode2: '', currencyIsoCode3: '' };

/** A new payment destination of the beneficiary (BANK, MOBILE_MONEY or CRYPTO), by the API's rules. */
function AddDestination({ beneficiaryId, onAdded }: { beneficiaryId: string; onAdded(): void }) {
  const { form, setForm, bind } = useForm<Form>('new-destination', newDestination);
  const action = useAction(onAdded);
  const method = (form.method ?? 'CRYPTO') as Method;
  const add = (e: Event) => {
    e.preventDefault();
    const members = ['countryIsoCode2', 'currencyIsoCode3', ...METHOD_FIELDS[method].map(([name]) => name)];
    const body = Object.fromEntries(
      members.filter((name) => form[name]).map((name) => [name, form[name] as string]),
    );
    action.run(async () => {
      ok(
        await api().POST('/beneficiaries/{beneficiaryId}/payment-destinations', {
          params: { path: { beneficiaryId } },
          body: { ...body, method } as Schemas['CreatePaymentDestinationRequest'],
        }),
      );
      setForm({ ...newDestination, method });
    }, 'Destination added.');
  };
  const field = (name: string, label: string) => (
    <Field key={name} label={label} field={name} problem={action.problem} bind={bind(name)} />
  );
  return (
    <div class="card">
      <h2>Add a payment destination</h2>
      <form class="inline" onSubmit={add}>
        <Field label="Method" field="method" problem={action.problem} bind={bind('method')}>
          {Object.keys(METHOD_FIELDS).map((m) => (
            <option key={m}>{m}</option>
          ))}
        </Field>
        {field('countryIsoCode2', 'Country (2 letters)')}
        {field('currencyIsoCode3', 'Currency (3 letters)')}
        {METHOD_FIELDS[method].map(([name, label]) => field(name, label))}
        <button type="submit">Add destination</button>
      </form>
      {action.outcome}
    </div>
  );
}

/** Where a destination pays, as the API shows it (account and mobile numbers masked). */
const payeeOf = (d: Destination) =>
  d.method === 'BANK'
    ? `${d.accountNumber} (${d.bankCode}), ${d.accountHolderName}`
    : d.method === 'MOBILE_MONEY'
      ? `${d.mobileNumber} (${d.provider})`
      : `${d.walletAddress} (${d.assetSymbol} on ${d.networkName})`;

/** A beneficiary: its details, an edit form, and its payment destinations (listed, added, each opened). */
export function Beneficiary({ id }: { id: string }) {
  const path = { beneficiaryId: id };
  const beneficiary = useLoad(
    async () => ok(await api().GET('/beneficiaries/{beneficiaryId}', { params: { path } })),
    [id],
  );
  const destinations = useLoad(
    async () =>
      ok(
        await api().GET('/beneficiaries/{beneficiaryId}/payment-destinations', {
          params: { path, query: { limit: 100 } },
        }),
      ),
    [id],
  );
  const b = beneficiary.data;
  return (
    <Page title={b ? `Beneficiary: ${nameOf(b)}` : 'Beneficiary'}>
      <Back to="beneficiaries" label="All beneficiaries" />
      <Loading load={beneficiary} />
      {b && (
        <>
          <div class="card">
            <dl class="facts">
              <dt>Id</dt>
              <dd class="mono">{b.id}</dd>
              <dt>Kind</dt>
              <dd>{b.kind}</dd>
              <dt>Classification</dt>
              <dd>{`${b.classification}${b.unverifiedTier ? ` (${b.unverifiedTier})` : ''}`}</dd>
              <dt>Updated</dt>
              <dd>{when(b.updatedAt)}</dd>
            </dl>
          </div>
          <EditBeneficiary beneficiary={b} onSaved={beneficiary.reload} />
        </>
      )}
      <h2>Payment destinations</h2>
      <AddDestination beneficiaryId={id} onAdded={destinations.reload} />
      <Loading load={destinations} />
      {destinations.data && (
        <Table
          columns={['Method', 'Pays', 'Country', 'Verification', 'Created']}
          rows={destinations.data.data}
          empty="No payment destinations yet."
          row={(d) => (
            <tr key={d.id}>
              <td>
                <a href={`#/beneficiaries/${id}/destinations/${d.id}`}>{d.method}</a>
              </td>
              <td class="mono">{payeeOf(d)}</td>
              <td>{`${d.countryName} (${d.currencyCode})`}</td>
              <td>
                <Status value={d.verificationStatus} />
              </td>
              <td>{when(d.createdAt)}</td>
            </tr>
          )}
        />
      )}
    </Page>
  );
}

/** One payment destination, under its own beneficiary. */
export function Destination({ beneficiaryId, id }: { beneficiaryId: string; id: string }) {
  const load = useLoad(
    async () =>
      ok(
        await api().GET('/beneficiaries/{beneficiaryId}/payment-destinations/{destinationId}', {
          params: { path: { beneficiaryId, destinationId: id } },
        }),
      ),
    [beneficiaryId, id],
  );
  const d = load.data;
  return (
    <Page title="Payment destination">
      <Back to={`beneficiaries/${beneficiaryId}`} label="The beneficiary" />
      <Loading load={load} />
      {d && (
        <div class="card">
          <dl class="facts">
            <dt>Id</dt>
            <dd class="mono">{d.id}</dd>
            <dt>Method</dt>
            <dd>{d.method}</dd>
            <dt>Pays</dt>
            <dd class="mono">{payeeOf(d)}</dd>
            <dt>Country</dt>
            <dd>{`${d.countryName} (${d.countryIso}, ${d.region})`}</dd>
            <dt>Currency</dt>
            <dd>{d.currencyCode}</dd>
            <dt>Verification</dt>
            <dd>
              <Status value={d.verificationStatus} />
            </dd>
            <dt>Verify as me</dt>
            <dd>{d.verifyAsMe ? 'yes' : 'no'}</dd>
            <dt>Created</dt>
            <dd>{when(d.createdAt)}</dd>
          </dl>
        </div>
      )}
    </Page>
  );
}
