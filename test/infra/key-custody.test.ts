// Key custody as the stack provisions it, against what the code expects of it: which secrets exist and
// who writes their values (never CloudFormation), that the values the rotation function writes are the
// ones the readers accept (format and length), one KEK per environment, who may decrypt what, and the
// customer-managed keys. A mismatch like a 64-character generated KEK decoded to 48 bytes fails here,
// at synth, instead of on the first wallet in AWS.
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { exportJWK, importJWK, jwtVerify, SignJWT } from 'jose';
import { describe, test } from 'vitest';
import { breakGlassRoleFromContext } from '../../infra/constructs/key-guard.ts';
import { ROTATION_DAYS } from '../../infra/constructs/key-secrets.ts';
import { functionAccess, type SecretName, secretIdVariable } from '../../infra/function-access.ts';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { SynthRefusal } from '../../infra/stage.ts';
import { type SigningKeyRing, TOKEN_ALGORITHM } from '../../lib/auth/signing-keys.ts';
import { cursorKeysOf } from '../../lib/db/cursor.ts';
import { checkSecretValue, nextSecretValue, rotatedKindOf } from '../../lib/keys/rotation.ts';
import { CustodyError, openBytes, parseKekRing, type SealedSecret, sealBytes } from '../../lib/secret-box.ts';
import { secretNames } from '../../lib/secret-names.ts';
import { stageTargetOf } from '../../lib/stage-targets.ts';
import {
  asArray,
  type CfnResource,
  ensureBundles,
  newApp,
  ofType,
  onlyOfType,
  type PolicyStatement,
  PROD_REQUIRED,
  type Resources,
  referencedId,
  stageProps,
  stageTemplate,
  statementsOfRole,
} from './support.ts';

await ensureBundles();
const app = newApp();
const stacks = {
  dev: new PaymentsGatewayStack(app, 'KeysDev', { stage: 'dev' }),
  prod: new PaymentsGatewayStack(app, 'KeysProd', stageProps('prod')),
};
const templates = {
  dev: stageTemplate(stacks.dev).toJSON().Resources as Resources,
  prod: stageTemplate(stacks.prod).toJSON().Resources as Resources,
};
const resources = templates.dev;
const props = (id: string, of: Resources = resources) => of[id]?.Properties ?? {};

const SECRET_NAMES: Record<SecretName, (stage: string) => string> = {
  'signing-keys': (stage) => secretNames(stage).signingKeys,
  'token-jwks': (stage) => secretNames(stage).tokenJwks,
  'cursor-key': (stage) => secretNames(stage).cursorKey,
  'kek-sandbox': (stage) => secretNames(stage).kek.sandbox,
  'kek-production': (stage) => secretNames(stage).kek.production,
};
const secretIdOf = (name: SecretName, stage = 'dev', of: Resources = resources) => {
  const found = ofType(of, 'AWS::SecretsManager::Secret').filter(
    ([, r]) => r.Properties?.Name === SECRET_NAMES[name](stage),
  );
  assert.equal(found.length, 1, `exactly one ${name} secret`);
  return found[0]?.[0] as string;
};
/** The name a key policy's `…:secret:<name>-??????` pattern stands for. */
const patternName = (pattern: unknown) => {
  const match = /:secret:([^"]+)-\?{6}"/.exec(JSON.stringify(pattern));
  assert.ok(match, `not a secret ARN pattern: ${JSON.stringify(pattern)}`);
  return match[1] as string;
};
const functionNamed = (bundle: string, stage = 'dev', of: Resources = resources) => {
  const found = ofType(of, 'AWS::Lambda::Function').filter(
    ([, r]) => r.Properties?.Description === `payments-gateway ${stage} ${bundle}`,
  );
  assert.equal(found.length, 1, `function ${bundle}`);
  return found[0] as [string, CfnResource];
};
const roleOf = (bundle: string, stage = 'dev', of: Resources = resources) =>
  referencedId(functionNamed(bundle, stage, of)[1].Properties?.Role);

/**
 * The edge's origin token (infra/constructs/edge.ts) is the one secret CloudFormation generates: CloudFront
 * must be given its value in the template. Every other secret is key material, written only by rotation.
 */
const isOriginToken = ([, r]: [string, CfnResource]) => String(r.Properties?.Name).endsWith('/origin-verify');
const keySecretsOf = (of: Resources) =>
  ofType(of, 'AWS::SecretsManager::Secret').filter((secret) => !isOriginToken(secret));

const secretsKeyId = (of: Resources = resources) => {
  const ids = new Set(keySecretsOf(of).map(([, r]) => referencedId(r.Properties?.KmsKeyId)));
  assert.equal(ids.size, 1, 'one key encrypts the key secrets');
  return [...ids][0] as string;
};
const keyStatements = (keyId: string, of: Resources = resources) =>
  ((props(keyId, of).KeyPolicy as { Statement: PolicyStatement[] }).Statement ?? []) as (PolicyStatement & {
    Principal: unknown;
    Sid?: string;
  })[];
const principalsOf = (statement: { Principal: unknown }) =>
  asArray((statement.Principal as { AWS?: unknown }).AWS).flatMap((p) => {
    try {
      return [referencedId(p)];
    } catch {
      return [];
    }
  });

/**
 * Which secrets (by name) the key policy lets a role use with `action`, after checking each such
 * statement goes through Secrets Manager only.
 */
function keyUseOf(roleId: string, action: string, of: Resources = resources): Set<string> {
  const names = new Set<string>();
  for (const statement of keyStatements(secretsKeyId(of), of)) {
    if (!principalsOf(statement).includes(roleId) || !asArray(statement.Action).includes(action)) continue;
    const condition = statement.Condition as {
      StringEquals?: Record<string, unknown>;
      StringLike?: Record<string, unknown>;
    };
    assert.match(JSON.stringify(condition.StringEquals?.['kms:ViaService']), /secretsmanager\./);
    for (const pattern of asArray(condition.StringLike?.['kms:EncryptionContext:SecretARN']))
      names.add(patternName(pattern));
  }
  return names;
}

/** Secret names a role may GetSecretValue. */
function secretsReadBy(roleId: string, of: Resources = resources): Set<string> {
  const byId = new Map(ofType(of, 'AWS::SecretsManager::Secret').map(([id, r]) => [id, r.Properties?.Name]));
  return new Set(
    statementsOfRole(of, roleId)
      .filter((s) => asArray(s.Action).includes('secretsmanager:GetSecretValue'))
      .flatMap((s) => asArray(s.Resource).map((r) => String(byId.get(referencedId(r))))),
  );
}

describe('key secrets in the template', () => {
  test('the origin token is the one generated secret, in the form lib/api.ts reads: {token} of letters and digits', () => {
    const generated = ofType(resources, 'AWS::SecretsManager::Secret').filter(isOriginToken);
    assert.equal(generated.length, 1);
    const spec = generated[0]?.[1].Properties?.GenerateSecretString as Record<string, unknown>;
    assert.equal(spec.GenerateStringKey, 'token');
    assert.equal(spec.ExcludePunctuation, true);
    assert.ok(Number(spec.PasswordLength) >= 32);
    assert.equal(typeof JSON.parse(String(spec.SecretStringTemplate)), 'object');
  });

  test('no secret has a value or a generator: CloudFormation never writes, regenerates or replaces a key', () => {
    const secrets = keySecretsOf(resources);
    assert.equal(secrets.length, 5);
    for (const [id, secret] of [...secrets, ...keySecretsOf(templates.prod)]) {
      // A generated secret would be in the generator's format (64 letters and digits), not the readers':
      // there is none, and any that appears must first be proven readable here.
      assert.equal(
        secret.Properties?.GenerateSecretString,
        undefined,
        `${id} is generated by CloudFormation`,
      );
      assert.equal(secret.Properties?.SecretString, undefined, `${id} holds a value in the template`);
    }
  });

  test('every secret but the JWKS is rotated by the rotation function, first as soon as it exists', () => {
    const [rotationId] = functionNamed('rotation/keys');
    const schedules = ofType(resources, 'AWS::SecretsManager::RotationSchedule');
    const rotated = new Map(
      schedules.map(([, r]) => [referencedId(r.Properties?.SecretId), r.Properties ?? {}]),
    );
    for (const name of Object.keys(SECRET_NAMES) as SecretName[]) {
      const schedule = rotated.get(secretIdOf(name));
      if (name === 'token-jwks') {
        assert.equal(schedule, undefined, 'the JWKS is written by the signing keys rotation');
        continue;
      }
      assert.ok(schedule, `${name} has a rotation schedule`);
      assert.equal(referencedId(schedule.RotationLambdaARN), rotationId);
      assert.equal(
        schedule.RotateImmediatelyOnUpdate,
        true,
        `${name}: its first value comes with the deploy`,
      );
      assert.deepEqual(schedule.RotationRules, { ScheduleExpression: `rate(${ROTATION_DAYS[name]} days)` });
      // The function knows what each rotated secret is (by its name), so the rotation cannot fail on it.
      assert.ok(rotatedKindOf(SECRET_NAMES[name]('dev'), 'dev'), `${name} is a kind the function rotates`);
    }
    // Secrets Manager may invoke the function for exactly the rotated secrets of this stack.
    const permissions = ofType(resources, 'AWS::Lambda::Permission')
      .filter(([, r]) => r.Properties?.Principal === 'secretsmanager.amazonaws.com')
      .map(([, r]) => r.Properties ?? {});
    for (const p of permissions) assert.equal(referencedId(p.FunctionName), rotationId);
    assert.deepEqual(
      new Set(permissions.map((p) => referencedId(p.SourceArn))),
      new Set([...rotated.keys()]),
    );
    assert.equal(permissions.length, rotated.size);
    // The signing keys' rotation publishes the JWKS: it is told where, and may write there.
    const env = (props(rotationId).Environment as { Variables: Record<string, unknown> }).Variables;
    assert.deepEqual(env.TOKEN_JWKS_SECRET_ID, { Ref: secretIdOf('token-jwks') });
  });

  test('the rotation function may rotate exactly the rotated secrets and write only the JWKS besides', () => {
    const role = roleOf('rotation/keys');
    const byAction = new Map<string, Set<string>>();
    for (const statement of statementsOfRole(resources, role))
      for (const action of asArray(statement.Action).filter((a) => a.startsWith('secretsmanager:')))
        for (const target of asArray(statement.Resource)) {
          const seen = byAction.get(action) ?? new Set<string>();
          seen.add(referencedId(target));
          byAction.set(action, seen);
        }
    const rotated = (['signing-keys', 'cursor-key', 'kek-sandbox', 'kek-production'] as const).map((n) =>
      secretIdOf(n),
    );
    for (const action of ['DescribeSecret', 'GetSecretValue', 'UpdateSecretVersionStage'])
      assert.deepEqual(byAction.get(`secretsmanager:${action}`), new Set(rotated), action);
    assert.deepEqual(
      byAction.get('secretsmanager:PutSecretValue'),
      new Set([...rotated, secretIdOf('token-jwks')]),
    );
    assert.equal(byAction.size, 4);
    const names = ['signing-keys', 'cursor-key', 'kek-sandbox', 'kek-production', 'token-jwks'].map((n) =>
      SECRET_NAMES[n as SecretName]('dev'),
    );
    assert.deepEqual(keyUseOf(role, 'kms:Decrypt'), new Set(names));
    assert.deepEqual(keyUseOf(role, 'kms:GenerateDataKey'), new Set(names));
  });
});

describe('what the rotation writes is what the readers read', () => {
  const now = new Date('2026-01-01T00:00:00Z');

  test('KEK: a ring of 32-byte keys; a rotation adds one and keeps every earlier key', async () => {
    const first = await nextSecretValue('kek', undefined, now);
    checkSecretValue('kek', first, undefined);
    const ring = parseKekRing(first);
    assert.equal(ring.current.key.length, 32);
    const sealed = sealBytes(ring, 'owner', Buffer.from('seed'));
    assert.equal(sealed.kid, ring.current.kid);

    const second = await nextSecretValue('kek', first, now);
    checkSecretValue('kek', second, first);
    const rotated = parseKekRing(second);
    assert.notEqual(rotated.current.kid, ring.current.kid);
    assert.equal(rotated.byKid.size, 2);
    // Sealed before the rotation: still opens. Sealed after: under the new key.
    assert.equal(openBytes(rotated, 'owner', sealed).toString(), 'seed');
    assert.equal(sealBytes(rotated, 'owner', Buffer.from('x')).kid, rotated.current.kid);
    // A value sealed before key ids (no kid) opens with the first key.
    const { kid: _kid, ...legacy } = sealed;
    assert.equal(openBytes(rotated, 'owner', legacy as SealedSecret).toString(), 'seed');
    // The check refuses a rotation that would lose a key.
    assert.throws(() => checkSecretValue('kek', first, second), /lost key/);
  });

  test('KEK: what a deploy could leave or a generator make is refused, clearly, before anything is sealed', () => {
    const refused = (value: unknown, message: RegExp) =>
      assert.throws(
        () => parseKekRing(value, 'The sandbox key-encryption key'),
        (error: unknown) => error instanceof CustodyError && message.test(error.message),
      );
    // A placeholder, or an empty value: no key yet, and the message says how to make one.
    refused({ keys: [] }, /sandbox key-encryption key holds no key yet: .*keys rotate --secret kek/);
    refused({}, /holds no key yet/);
    refused(null, /is not a JSON object/);
    // What Secrets Manager's generator made before (64 letters and digits): 48 bytes decoded, refused.
    const generated = {
      key: randomBytes(48)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, 'A')
        .slice(0, 64),
    };
    refused(generated, /key k1 is not 32 bytes of base64/);
    refused(
      { current: 'k2', keys: [{ kid: 'k1', key: randomBytes(32).toString('base64') }] },
      /names no current key/,
    );
  });

  test('cursor key: a 32-byte AES key; a rotation keeps the key it replaced, which still opens cursors', async () => {
    const first = await nextSecretValue('cursor-key', undefined, now);
    checkSecretValue('cursor-key', first, undefined);
    const [key] = cursorKeysOf(first);
    assert.equal(key?.length, 32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key as Buffer, iv);
    const sealed = Buffer.concat([cipher.update('position'), cipher.final()]);
    const tag = cipher.getAuthTag();

    const second = await nextSecretValue('cursor-key', first, now);
    checkSecretValue('cursor-key', second, first);
    const keys = cursorKeysOf(second);
    assert.equal(keys.length, 2);
    assert.notDeepEqual(keys[0], key);
    const decipher = createDecipheriv('aes-256-gcm', keys[1] as Buffer, iv);
    decipher.setAuthTag(tag);
    assert.equal(Buffer.concat([decipher.update(sealed), decipher.final()]).toString(), 'position');
    // The generator's old format (64 letters and digits under `key`) is also a key the reader accepts.
    assert.equal(cursorKeysOf({ key: 'a'.repeat(64) })[0]?.length, 32);
    assert.throws(() => cursorKeysOf({}), /no key/);
  });

  test('signing keys: the active key signs, the public JWKS verifies, the previous key stays', async () => {
    const first = (await nextSecretValue('signing-keys', undefined, now)) as SigningKeyRing;
    checkSecretValue('signing-keys', first, undefined);
    const second = (await nextSecretValue('signing-keys', first, now)) as SigningKeyRing;
    checkSecretValue('signing-keys', second, first);
    assert.deepEqual(
      second.keys.map((k) => k.kid),
      [second.activeKid, first.activeKid],
    );
    const active = second.keys.find((k) => k.kid === second.activeKid);
    const key = await importJWK(active?.privateJwk ?? {}, TOKEN_ALGORITHM);
    const token = await new SignJWT({}).setProtectedHeader({ alg: TOKEN_ALGORITHM }).sign(key);
    const { publicJwksOf } = await import('../../lib/auth/signing-keys.ts');
    const published = publicJwksOf(second).keys.find((k) => k.kid === second.activeKid);
    assert.equal(published && 'd' in published, false, 'no private part in the JWKS');
    await jwtVerify(token, await importJWK(published ?? {}, TOKEN_ALGORITHM));
    assert.ok(await exportJWK(await importJWK(published ?? {}, TOKEN_ALGORITHM)));
  });
});

describe('one KEK per environment', () => {
  test('two KEK secrets, and every function is told exactly the KEKs it may read', () => {
    for (const [bundle, access] of Object.entries(functionAccess)) {
      const [functionId] = functionNamed(bundle);
      const env = (props(functionId).Environment as { Variables: Record<string, unknown> }).Variables;
      for (const kek of ['kek-sandbox', 'kek-production'] as const) {
        const expected = access.secrets.includes(kek) ? { Ref: secretIdOf(kek) } : undefined;
        assert.deepEqual(env[secretIdVariable[kek]], expected, `${bundle} ${kek}`);
      }
      assert.equal(env.KEK_SECRET_ID, undefined, `${bundle}: no single KEK any more`);
    }
  });

  test('functions that serve both environments read both KEKs', () => {
    for (const bundle of [
      'api/wallets',
      'api/webhooks',
      'workers/wallet-activator',
      'workers/ledger-submitter',
      'workers/webhook-deliverer',
    ]) {
      const names = SECRET_NAMES;
      assert.deepEqual(
        [...secretsReadBy(roleOf(bundle))].filter((n) => n.includes('/kek-')).sort(),
        [names['kek-production']('dev'), names['kek-sandbox']('dev')],
        bundle,
      );
    }
  });

  for (const stage of ['dev', 'prod'] as const) {
    test(`${stage}: the sandbox function can read the sandbox KEK and not the production one (IAM nor key policy)`, () => {
      const of = templates[stage];
      const role = roleOf('api/sandbox', stage, of);
      const production = secretNames(stage).kek.production;
      const sandbox = secretNames(stage).kek.sandbox;
      assert.ok(!secretsReadBy(role, of).has(production), 'GetSecretValue on the production KEK');
      assert.ok(!keyUseOf(role, 'kms:Decrypt', of).has(production), 'kms:Decrypt of the production KEK');
      assert.ok(secretsReadBy(role, of).has(sandbox) && keyUseOf(role, 'kms:Decrypt', of).has(sandbox));
    });
  }
});

describe('customer-managed keys', () => {
  test('the secrets key lets each role decrypt exactly the secrets it reads, through Secrets Manager only', () => {
    const keyId = secretsKeyId();
    assert.equal(resources[keyId]?.Type, 'AWS::KMS::Key');
    for (const [bundle, access] of Object.entries(functionAccess)) {
      if (access.rotates) continue; // the rotation function: above
      const role = roleOf(bundle);
      const expected = new Set(access.secrets.map((name) => SECRET_NAMES[name]('dev')));
      assert.deepEqual(keyUseOf(role, 'kms:Decrypt'), expected, `${bundle}: key policy`);
      // The origin token (AWS-managed key, not key material) is read by every function of the chain.
      const keyMaterialRead = new Set([...secretsReadBy(role)].filter((n) => !n.endsWith('/origin-verify')));
      assert.deepEqual(keyMaterialRead, expected, `${bundle}: IAM`);
      assert.deepEqual(keyUseOf(role, 'kms:GenerateDataKey'), new Set(), `${bundle} writes no secret`);
    }
  });

  test('the account may administer each key but not use it: no IAM policy can grant decrypting a secret', () => {
    for (const [id, key] of ofType(resources, 'AWS::KMS::Key')) {
      for (const statement of keyStatements(id)) {
        const actions = asArray(statement.Action);
        assert.ok(!actions.includes('kms:*'), `${id}: kms:* in its policy`);
        const principal = JSON.stringify(statement.Principal);
        if (principal.includes(':root'))
          for (const action of actions)
            assert.doesNotMatch(action, /^kms:(Decrypt|Encrypt|GenerateDataKey|ReEncrypt|CreateGrant)/, id);
        assert.equal(statement.Effect, 'Allow');
      }
      assert.equal(key.Properties?.EnableKeyRotation, true, `${id}: rotation`);
    }
  });

  test('the alarm topic is encrypted with a customer-managed key that admits CloudWatch', () => {
    const topics = ofType(resources, 'AWS::SNS::Topic');
    assert.equal(topics.length, 1);
    const keyId = referencedId(topics[0]?.[1].Properties?.KmsMasterKeyId);
    assert.equal(resources[keyId]?.Type, 'AWS::KMS::Key');
    assert.notEqual(keyId, secretsKeyId(), 'not the secrets key');
    const cloudwatch = keyStatements(keyId).find(
      (s) => JSON.stringify(s.Principal) === JSON.stringify({ Service: 'cloudwatch.amazonaws.com' }),
    );
    assert.deepEqual(new Set(asArray(cloudwatch?.Action)), new Set(['kms:Decrypt', 'kms:GenerateDataKey*']));
  });

  test('prod retains its keys and key secrets (not the origin token); dev deletes them', () => {
    for (const [id, key] of ofType(templates.prod, 'AWS::KMS::Key'))
      assert.equal(key.DeletionPolicy, 'RetainExceptOnCreate', id);
    for (const [id, secret] of keySecretsOf(templates.prod))
      assert.equal(secret.DeletionPolicy, 'RetainExceptOnCreate', id);
    // Worth nothing without its distribution; kept, its fixed name would block the stack created again.
    for (const [id, secret] of ofType(templates.prod, 'AWS::SecretsManager::Secret').filter(isOriginToken))
      assert.equal(secret.DeletionPolicy, 'Delete', id);
    for (const [id, key] of ofType(resources, 'AWS::KMS::Key'))
      assert.equal(key.DeletionPolicy, 'Delete', id);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties, read as the template has them.
type Json = any;

/** The statement of a guarded key's policy: no one but `allowed` disables it or schedules its deletion. */
const keyGuardDeny = (allowed: string[]) => ({
  Sid: 'OnlyBreakGlassDisablesOrDeletes',
  Effect: 'Deny',
  Principal: { AWS: '*' },
  Action: ['kms:DisableKey', 'kms:ScheduleKeyDeletion'],
  Resource: '*',
  Condition: { ArnNotLike: { 'aws:PrincipalArn': allowed } },
});

describe('key material that cannot be lost by one mistake (prod)', () => {
  const prodResources = templates.prod;
  const account = stacks.prod.account;
  const region = stacks.prod.region;
  const allowed = [`arn:aws:iam::${account}:role/cdk-hnb659fds-cfn-exec-role-${account}-${region}`];

  test('nobody but the deploy role may disable the KEKs key or schedule its deletion (no break-glass role given)', () => {
    const denies = keyStatements(secretsKeyId(prodResources), prodResources).filter(
      (st) => st.Effect === 'Deny',
    );
    assert.deepEqual(denies, [keyGuardDeny(allowed)]);
    assert.deepEqual(
      keyStatements(secretsKeyId()).filter((st) => st.Effect === 'Deny'),
      [],
      'dev: disposable',
    );
  });

  test('the break-glass role of -c breakGlassRoleArn is the one other principal allowed', () => {
    const breakGlass = `arn:aws:iam::${account}:role/key-break-glass`;
    assert.equal(
      breakGlassRoleFromContext(new App({ context: { breakGlassRoleArn: breakGlass } }).node),
      breakGlass,
    );
    assert.throws(
      () => breakGlassRoleFromContext(new App({ context: { breakGlassRoleArn: 'admin' } }).node),
      /IAM role ARN/,
    );
    const app2 = newApp();
    const stack = new PaymentsGatewayStack(app2, 'Glass', {
      ...stageProps('prod'),
      breakGlassRoleArn: breakGlass,
    });
    const glass = stageTemplate(stack).toJSON().Resources as Resources;
    const [deny] = keyStatements(secretsKeyId(glass), glass).filter((st) => st.Effect === 'Deny');
    assert.deepEqual(deny?.Condition, { ArnNotLike: { 'aws:PrincipalArn': [...allowed, breakGlass] } });
  });

  test('every key secret has a resource policy denying DeleteSecret and removing its replica to all but those roles', () => {
    const policies = ofType(prodResources, 'AWS::SecretsManager::ResourcePolicy');
    const guarded = new Set(policies.map(([, r]) => referencedId(r.Properties?.SecretId)));
    assert.deepEqual(guarded, new Set(keySecretsOf(prodResources).map(([id]) => id)));
    for (const [, policy] of policies) {
      assert.deepEqual((policy.Properties as Json).ResourcePolicy.Statement, [
        {
          Sid: 'OnlyBreakGlassDeletes',
          Effect: 'Deny',
          Principal: { AWS: '*' },
          Action: [
            'secretsmanager:DeleteSecret',
            'secretsmanager:RemoveRegionsFromReplication',
            'secretsmanager:StopReplicationToReplica',
          ],
          Resource: '*',
          Condition: { ArnNotLike: { 'aws:PrincipalArn': allowed } },
        },
      ]);
    }
  });

  test('EventBridge notifies the alarm topic of DisableKey, ScheduleKeyDeletion, PutKeyPolicy, DeleteSecret, RemoveRegionsFromReplication and a failed rotation', () => {
    const topicId = onlyOfType(prodResources, 'AWS::SNS::Topic');
    // The rules that match API calls by name (a schedule, such as the outbox reconciler's, has no
    // pattern; SES feedback's matches its own events).
    const rules = ofType(prodResources, 'AWS::Events::Rule')
      .map(([, r]) => r.Properties as Record<string, Json>)
      .filter((rule) => rule.EventPattern?.detail?.eventName !== undefined);
    const names = (rule: Record<string, Json>) => rule.EventPattern.detail.eventName;
    assert.deepEqual(rules.flatMap(names).sort(), [
      'DeleteSecret',
      'DisableKey',
      'PutKeyPolicy',
      'RemoveRegionsFromReplication',
      'RotationFailed',
      'ScheduleKeyDeletion',
    ]);
    for (const rule of rules) {
      assert.deepEqual(
        rule.Targets.map((t: Json) => t.Arn),
        [{ Ref: topicId }],
      );
      assert.match(rule.Name, /^payments-gateway-prod-/);
    }
    const keyRule = rules.find((rule) => rule.EventPattern.source[0] === 'aws.kms');
    assert.deepEqual(keyRule?.EventPattern.detail.requestParameters.keyId, [
      { 'Fn::GetAtt': [secretsKeyId(prodResources), 'Arn'] },
      { Ref: secretsKeyId(prodResources) },
    ]);
    // The topic's key admits EventBridge for these rules only.
    const topicKey = referencedId(props(topicId, prodResources).KmsMasterKeyId);
    const events = keyStatements(topicKey, prodResources).find((st) =>
      JSON.stringify(st.Principal).includes('events'),
    );
    assert.match(JSON.stringify(events?.Condition), /rule\/payments-gateway-prod-\*/);
  });
});

describe('key material in a second region (prod)', () => {
  const prodResources = templates.prod;
  const account = stacks.prod.account;
  const { keyReplicaRegion } = stageTargetOf(newApp().node.tryGetContext('stages'), 'prod');
  /** The replica key's stack beside the prod stack, its template, its key and that key's ARN as prod reads it. */
  const replicaOf = () => {
    const stack = app.node.tryFindChild('KeysProd-key-replica') as Stack | undefined;
    assert.ok(stack, 'a stack of its own in the replica region');
    const template = Template.fromStack(stack).toJSON() as { Resources: Resources; Outputs: Json };
    const keyArn = {
      'Fn::GetStackOutput': {
        StackName: stack.stackName,
        Region: keyReplicaRegion,
        OutputName: Object.keys(template.Outputs).find((name) => name.startsWith('KeyArn')),
      },
    };
    // Two keys: the replicas' and the alarm topic's of that region.
    const topicId = onlyOfType(template.Resources, 'AWS::SNS::Topic');
    const topicKeyId = referencedId(props(topicId, template.Resources).KmsMasterKeyId);
    const [keyId, ...others] = ofType(template.Resources, 'AWS::KMS::Key')
      .map(([id]) => id)
      .filter((id) => id !== topicKeyId);
    assert.ok(keyId && others.length === 0, 'one key for the replicas');
    return { stack, template, keyId, keyArn, topicId, topicKeyId };
  };

  test("every key secret is replicated to cdk.json's keyReplicaRegion, encrypted there with the replica stack's key, from its creation", () => {
    const { stack: replicaStack, keyArn: replicaKeyArn } = replicaOf();
    assert.equal(keyReplicaRegion, 'eu-central-1');
    assert.equal(replicaStack.region, keyReplicaRegion);
    assert.equal(replicaStack.account, account);
    for (const [id, secret] of keySecretsOf(prodResources))
      assert.deepEqual(
        (secret.Properties as Json).ReplicaRegions,
        [{ Region: keyReplicaRegion, KmsKeyId: replicaKeyArn }],
        id,
      );
    // Deployed before the main stack: the secrets are created with their replicas.
    assert.ok(stacks.prod.dependencies.includes(replicaStack));
    // The origin token is worth nothing without its distribution; a disposable stage replicates nothing.
    for (const [id, secret] of ofType(prodResources, 'AWS::SecretsManager::Secret').filter(isOriginToken))
      assert.equal(secret.Properties?.ReplicaRegions, undefined, id);
    for (const [id, secret] of keySecretsOf(resources))
      assert.equal(secret.Properties?.ReplicaRegions, undefined, id);
    assert.equal(app.node.tryFindChild('KeysDev-key-replica'), undefined);
  });

  test('the replica key admits the rotation role alone, to encrypt key secrets through Secrets Manager there; no one reads a replica', () => {
    const { template: replica, keyId: replicaKeyId, keyArn: replicaKeyArn } = replicaOf();
    const statements = keyStatements(replicaKeyId, replica.Resources);
    const replication = statements.find((st) => st.Sid === 'RotationReplicatesKeySecrets');
    const rotationRole = `arn:aws:iam::${account}:role/payments-gateway-prod-key-rotation`;
    assert.deepEqual(asArray(replication?.Action), ['kms:Encrypt', 'kms:GenerateDataKey']);
    const condition = replication?.Condition as Json;
    assert.deepEqual(condition.ArnEquals, { 'aws:PrincipalArn': rotationRole });
    assert.deepEqual(condition.StringEquals, {
      'kms:ViaService': `secretsmanager.${keyReplicaRegion}.amazonaws.com`,
    });
    const patterns = asArray(condition.StringLike['kms:EncryptionContext:SecretARN']);
    assert.deepEqual(
      new Set(patterns.map(patternName)),
      new Set(keySecretsOf(prodResources).map(([, r]) => r.Properties?.Name)),
    );
    for (const pattern of patterns)
      assert.match(JSON.stringify(pattern), new RegExp(`:secretsmanager:${keyReplicaRegion}:`));
    // Nobody decrypts with it: the account administers, the rotation role encrypts.
    for (const statement of statements)
      for (const action of asArray(statement.Action))
        assert.doesNotMatch(action, /^kms:(Decrypt|ReEncrypt|CreateGrant|\*)/, statement.Sid ?? '');
    // The role of that name is the rotation function's, and its own policy allows the same on that key.
    const roleId = roleOf('rotation/keys', 'prod', prodResources);
    assert.equal(props(roleId, prodResources).RoleName, 'payments-gateway-prod-key-rotation');
    const onReplica = statementsOfRole(prodResources, roleId).filter(
      (st) => JSON.stringify(st.Resource) === JSON.stringify(replicaKeyArn),
    );
    assert.deepEqual(
      onReplica.map((st) => asArray(st.Action)),
      [['kms:Encrypt', 'kms:GenerateDataKey']],
    );
  });

  test('nobody but that region’s deploy role (and a break-glass role) may disable the replica key or delete it', () => {
    const { stack: replicaStack, template: replica, keyId: replicaKeyId } = replicaOf();
    const denies = keyStatements(replicaKeyId, replica.Resources).filter((st) => st.Effect === 'Deny');
    assert.deepEqual(denies, [
      keyGuardDeny([
        `arn:aws:iam::${account}:role/cdk-hnb659fds-cfn-exec-role-${account}-${keyReplicaRegion}`,
      ]),
    ]);
    assert.equal(replica.Resources[replicaKeyId]?.DeletionPolicy, 'RetainExceptOnCreate');
    assert.equal(replicaStack.terminationProtection, true);
  });

  test("what is done to the replica key or a replica in that region notifies the stage's subscribers from there", () => {
    const { template: replica, keyId, topicId, topicKeyId } = replicaOf();
    const rules = ofType(replica.Resources, 'AWS::Events::Rule').map(([, r]) => r.Properties as Json);
    assert.deepEqual(
      rules.map((rule) => rule.EventPattern),
      [
        {
          source: ['aws.kms'],
          'detail-type': ['AWS API Call via CloudTrail'],
          detail: {
            eventName: ['DisableKey', 'ScheduleKeyDeletion', 'PutKeyPolicy'],
            requestParameters: { keyId: [{ 'Fn::GetAtt': [keyId, 'Arn'] }, { Ref: keyId }] },
          },
        },
        {
          source: ['aws.secretsmanager'],
          'detail-type': ['AWS API Call via CloudTrail'],
          detail: {
            eventName: ['StopReplicationToReplica'],
            requestParameters: { secretId: [{ wildcard: '*prod/payments-gateway/*' }] },
          },
        },
      ],
    );
    for (const rule of rules) {
      assert.deepEqual(
        rule.Targets.map((t: Json) => t.Arn),
        [{ Ref: topicId }],
      );
      assert.match(rule.Name, /^payments-gateway-prod-/);
    }
    const subscriptions = ofType(replica.Resources, 'AWS::SNS::Subscription').map(([, r]) => r.Properties);
    assert.deepEqual(
      subscriptions.map((p) => [p?.Protocol, p?.Endpoint]),
      PROD_REQUIRED.alarmSubscribers.emails.map((email) => ['email', email]),
    );
    // The topic's key admits EventBridge for the stage's rules only.
    const events = keyStatements(topicKeyId, replica.Resources).find((st) =>
      JSON.stringify(st.Principal).includes('events'),
    );
    assert.match(JSON.stringify(events?.Condition), /:events:eu-central-1:.*rule\/payments-gateway-prod-\*/);
  });

  test('prod refuses to synthesize without a keyReplicaRegion, in one line; cdk.json refuses the stage region itself', () => {
    const stages = newApp().node.tryGetContext('stages');
    const { keyReplicaRegion: _dropped, ...single } = stageTargetOf(stages, 'prod');
    const elsewhere = newApp();
    elsewhere.node.setContext('stages', { ...stages, prod: single });
    assert.throws(
      () => new PaymentsGatewayStack(elsewhere, 'Single', stageProps('prod')),
      (error: unknown) =>
        error instanceof SynthRefusal &&
        /^Stage prod needs a second region for its key material: add "keyReplicaRegion"/.test(error.message),
    );
    assert.throws(
      () => stageTargetOf({ x: { ...single, keyReplicaRegion: single.region } }, 'x'),
      /"keyReplicaRegion" must be an AWS region other than "region"/,
    );
  });
});
