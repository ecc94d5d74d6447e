// The local SES: aws-ses-v2-local in-process on loopback, speaking SES API v2 (SendEmail) as the notifier
// calls it through AWS_ENDPOINT_URL_SESV2. It keeps what it received: GET /store lists the messages
// (tests read them there), and its page at / shows them in a browser.
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { closeServer } from './ports.ts';

/** A CommonJS module whose `default` is the server: required, so Node and vitest read it alike. */
const { default: sesServer } = createRequire(import.meta.url)('aws-ses-v2-local') as {
  default: (config: { host: string; port: number }) => Promise<Server>;
};

export interface LocalSes {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startLocalSes(): Promise<LocalSes> {
  const server = await sesServer({ host: '127.0.0.1', port: 0 });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => closeServer(server),
  };
}
