// A stand-in for Secrets Manager's GetSecretValue and PutSecretValue on loopback, serving JSON files from a folder, so the
// functions read key material through the same SDK call as in AWS (only AWS_ENDPOINT_URL_SECRETS_MANAGER differs).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

export const secretFileName = (secretId: string) => `${secretId.replaceAll('/', '__')}.json`;

export interface LocalSecretsManager {
  endpoint: string;
  stop(): Promise<void>;
}

function awsError(type: string, message: string) {
  return { status: 400, body: { __type: type, message } };
}

export function startLocalSecretsManager(secretsDir: string, port = 0): Promise<LocalSecretsManager> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        SecretId?: string;
        SecretString?: string;
      };
      const file = join(secretsDir, secretFileName(input.SecretId ?? ''));
      const arn = `arn:aws:secretsmanager:local:000000000000:secret:${input.SecretId}`;
      let reply: { status: number; body: unknown };
      if (!input.SecretId || !existsSync(file)) {
        reply = awsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      } else if (target === 'secretsmanager.GetSecretValue') {
        const SecretString = readFileSync(file, 'utf8');
        reply = { status: 200, body: { ARN: arn, Name: input.SecretId, SecretString, VersionId: 'local' } };
      } else if (target === 'secretsmanager.PutSecretValue' && typeof input.SecretString === 'string') {
        writeFileSync(file, input.SecretString, { mode: 0o600 });
        reply = { status: 200, body: { ARN: arn, Name: input.SecretId, VersionId: 'local' } };
      } else {
        reply = awsError('InvalidRequestException', `Unsupported operation ${target}`);
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
