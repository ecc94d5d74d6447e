// Lambda's Invoke API on loopback (POST /2015-03-31/functions/{name}/invocations, RequestResponse), for
// the functions something invokes by name rather than through an event source: the admin CLI's ledger
// admin function. The SDK's LambdaClient reaches it through AWS_ENDPOINT_URL_LAMBDA, as it reaches AWS.
import { createServer, type Server } from 'node:http';
import type { Context } from 'aws-lambda';
import { invokeIsolated } from './invocation.ts';
import { lambdaContext } from './lambda-event.ts';

export type InvokedHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface LocalLambda {
  endpoint: string;
  stop(): Promise<void>;
}

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** `functions`: function name → its handler (loaded on first invocation, like a cold start). */
export async function startLocalLambda(
  functions: ReadonlyMap<string, () => Promise<InvokedHandler>>,
): Promise<LocalLambda> {
  const loaded = new Map<string, Promise<InvokedHandler>>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      const name = decodeURIComponent(INVOKE_PATH.exec(req.url?.split('?')[0] ?? '')?.[1] ?? '');
      const load = functions.get(name);
      if (req.method !== 'POST' || !load) {
        return send(
          404,
          { Type: 'User', message: `Function not found: ${name}` },
          { 'x-amzn-ErrorType': 'ResourceNotFoundException' },
        );
      }
      let event: unknown;
      try {
        event = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return send(
          400,
          { Type: 'User', message: 'Could not parse request body into json' },
          {
            'x-amzn-ErrorType': 'InvalidRequestContentException',
          },
        );
      }
      let handler = loaded.get(name);
      if (!handler) {
        handler = load();
        loaded.set(name, handler);
      }
      try {
        send(200, await invokeIsolated(await handler, event, lambdaContext(name, 60_000)));
      } catch (error) {
        // As Lambda answers a function that threw: 200, the error in the payload, flagged by a header.
        const { name: errorType, message: errorMessage } = error as Error;
        send(200, { errorType, errorMessage }, { 'X-Amz-Function-Error': 'Unhandled' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The local Lambda service has no port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
