// A stand-in for Secrets Manager on loopback, serving JSON files from a folder, so the functions read
// key material through the same SDK calls as in AWS (only AWS_ENDPOINT_URL_SECRETS_MANAGER differs):
// GetSecretValue, PutSecretValue, DescribeSecret, UpdateSecretVersionStage and RotateSecret.
// A secret's AWSCURRENT value is its file (tests and `npm start` users may read or write it directly);
// an AWSPENDING version lives in memory for the length of a rotation, and as in AWS the version that
// AWSCURRENT leaves (by PutSecretValue, UpdateSecretVersionStage or a rewritten file) becomes AWSPREVIOUS,
// kept in memory until AWSCURRENT moves again. Declared secrets exist before
// they have a value, as CloudFormation creates them in AWS (empty); RotateSecret runs the rotation
// function's four steps in process, one after the other, and answers once they are done (AWS answers
// first and rotates in the background), with the failure of a step as its error.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { SecretsManagerRotationEvent } from 'aws-lambda';

export const secretFileName = (secretId: string) => `${secretId.replaceAll('/', '__')}.json`;

const ARN_PREFIX = 'arn:aws:secretsmanager:local:000000000000:secret:';

export interface LocalSecretsManager {
  endpoint: string;
  stop(): Promise<void>;
}

export interface LocalSecretsOptions {
  /** Secrets that exist (empty) before anything writes them: what the stack's infra creates. */
  declared?: readonly string[];
  /** Secrets with rotation turned on, and the rotation function Secrets Manager would invoke. */
  rotation?: {
    secrets: readonly string[];
    invoke(event: SecretsManagerRotationEvent): Promise<void>;
  };
}

interface Request {
  SecretId?: string;
  SecretString?: string;
  ClientRequestToken?: string;
  VersionId?: string;
  VersionStage?: string;
  VersionStages?: string[];
  MoveToVersionId?: string;
  RemoveFromVersionId?: string;
}

interface Reply {
  status: number;
  body: unknown;
}

class AwsError extends Error {
  readonly type: string;
  constructor(type: string, message: string) {
    super(message);
    this.type = type;
  }
}

const ROTATION_STEPS = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const;

export function startLocalSecretsManager(
  secretsDir: string,
  port = 0,
  options: LocalSecretsOptions = {},
): Promise<LocalSecretsManager> {
  const declared = new Set(options.declared ?? []);
  const rotated = new Set(options.rotation?.secrets ?? []);
  /** Per secret: its current file content and version id, the version before it, a pending one during a rotation. */
  const versions = new Map<
    string,
    {
      current?: { hash: string; id: string; text: string };
      previous?: { id: string; text: string };
      pending?: { id: string; value?: string };
    }
  >();
  const stateOf = (name: string) => {
    const state = versions.get(name) ?? {};
    versions.set(name, state);
    return state;
  };
  const fileOf = (name: string) => join(secretsDir, secretFileName(name));
  const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
  /** The version AWSCURRENT leaves becomes AWSPREVIOUS (AWS moves that label itself). */
  const moveCurrent = (name: string, to: { hash: string; id: string; text: string }) => {
    const state = stateOf(name);
    if (state.current && state.current.id !== to.id) state.previous = state.current;
    state.current = to;
  };
  /** The AWSCURRENT version: the file, under the id it was written with (its hash if written by hand). */
  const current = (name: string) => {
    if (!existsSync(fileOf(name))) return undefined;
    const text = readFileSync(fileOf(name), 'utf8');
    const hash = hashOf(text);
    const known = versions.get(name)?.current;
    if (known?.hash !== hash) moveCurrent(name, { hash, id: hash, text });
    return { text, id: known?.hash === hash ? known.id : hash };
  };
  const writeCurrent = (name: string, text: string, id: string) => {
    current(name);
    writeFileSync(fileOf(name), text, { mode: 0o600 });
    moveCurrent(name, { hash: hashOf(text), id, text });
  };

  const handle = async (target: string, input: Request): Promise<Reply> => {
    const name = (input.SecretId ?? '').replace(ARN_PREFIX, '');
    const ids = { ARN: `${ARN_PREFIX}${name}`, Name: name };
    if (!name || !(declared.has(name) || existsSync(fileOf(name))))
      throw new AwsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    const state = stateOf(name);
    switch (target) {
      case 'secretsmanager.GetSecretValue': {
        const now = current(name);
        const pending = state.pending?.value !== undefined ? state.pending : undefined;
        const stage = input.VersionStage ?? (input.VersionId ? undefined : 'AWSCURRENT');
        if (now && (input.VersionId ?? now.id) === now.id && (stage ?? 'AWSCURRENT') === 'AWSCURRENT')
          return { status: 200, body: { ...ids, SecretString: now.text, VersionId: now.id } };
        if (
          pending &&
          (input.VersionId ?? pending.id) === pending.id &&
          (stage ?? 'AWSPENDING') === 'AWSPENDING'
        )
          return { status: 200, body: { ...ids, SecretString: pending.value, VersionId: pending.id } };
        const previous = state.previous;
        if (
          previous &&
          (input.VersionId ?? previous.id) === previous.id &&
          (stage ?? 'AWSPREVIOUS') === 'AWSPREVIOUS'
        )
          return { status: 200, body: { ...ids, SecretString: previous.text, VersionId: previous.id } };
        throw new AwsError(
          'ResourceNotFoundException',
          `Secrets Manager can't find the specified secret value for ${input.VersionId ? `VersionId: ${input.VersionId}` : `staging label: ${stage}`}`,
        );
      }
      case 'secretsmanager.PutSecretValue': {
        if (typeof input.SecretString !== 'string')
          throw new AwsError('InvalidParameterException', 'SecretString is required');
        const id = input.ClientRequestToken ?? randomUUID();
        const stages = input.VersionStages ?? ['AWSCURRENT'];
        if (stages.includes('AWSCURRENT')) writeCurrent(name, input.SecretString, id);
        else if (stages.includes('AWSPENDING')) state.pending = { id, value: input.SecretString };
        else throw new AwsError('InvalidParameterException', 'Only AWSCURRENT and AWSPENDING are kept here');
        return { status: 200, body: { ...ids, VersionId: id, VersionStages: stages } };
      }
      case 'secretsmanager.DescribeSecret': {
        const VersionIdsToStages: Record<string, string[]> = {};
        const now = current(name);
        if (now) VersionIdsToStages[now.id] = ['AWSCURRENT'];
        if (state.previous) VersionIdsToStages[state.previous.id] = ['AWSPREVIOUS'];
        if (state.pending) VersionIdsToStages[state.pending.id] = ['AWSPENDING'];
        // A rotated secret's value is written by its rotations alone (the last step makes it current), so
        // its file's time is when the last one finished: AWS's LastRotatedDate (epoch seconds on the wire).
        const lastRotated =
          rotated.has(name) && now ? { LastRotatedDate: statSync(fileOf(name)).mtimeMs / 1000 } : {};
        return {
          status: 200,
          body: { ...ids, RotationEnabled: rotated.has(name), VersionIdsToStages, ...lastRotated },
        };
      }
      case 'secretsmanager.UpdateSecretVersionStage': {
        if (input.VersionStage !== 'AWSCURRENT')
          throw new AwsError('InvalidParameterException', 'Only AWSCURRENT is moved here');
        const now = current(name);
        if (now?.id === input.MoveToVersionId) return { status: 200, body: ids };
        // As in AWS: a label attached to another version must be named where it is removed from.
        if (now && input.RemoveFromVersionId !== now.id)
          throw new AwsError(
            'InvalidParameterException',
            `The parameter RemoveFromVersionId must name ${now.id}, which AWSCURRENT is attached to`,
          );
        const pending = state.pending;
        if (!pending || pending.id !== input.MoveToVersionId || pending.value === undefined)
          throw new AwsError('ResourceNotFoundException', `No version ${input.MoveToVersionId} with a value`);
        writeCurrent(name, pending.value, pending.id);
        state.pending = undefined;
        return { status: 200, body: ids };
      }
      case 'secretsmanager.RotateSecret': {
        if (!rotated.has(name) || !options.rotation)
          throw new AwsError(
            'InvalidRequestException',
            'No Lambda rotation function ARN is associated with this secret.',
          );
        const id = input.ClientRequestToken ?? randomUUID();
        state.pending = { id };
        for (const step of ROTATION_STEPS) {
          try {
            await options.rotation.invoke({ Step: step, SecretId: ids.ARN, ClientRequestToken: id });
          } catch (error) {
            throw new AwsError(
              'InvalidRequestException',
              `Rotation of ${name} failed at ${step}: ${(error as Error).message}`,
            );
          }
        }
        return { status: 200, body: { ...ids, VersionId: id } };
      }
      default:
        throw new AwsError('InvalidRequestException', `Unsupported operation ${target}`);
    }
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      let reply: Reply;
      try {
        reply = await handle(target, JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Request);
      } catch (error) {
        const type = error instanceof AwsError ? error.type : 'InternalServiceError';
        reply = { status: 400, body: { __type: type, message: (error as Error).message } };
      }
      res.writeHead(reply.status, { 'Content-Type': 'application/x-amz-json-1.1' });
      res.end(JSON.stringify(reply.body));
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({
        endpoint: `http://127.0.0.1:${actualPort}`,
        stop: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
