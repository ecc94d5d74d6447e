// A webhook receiver on loopback for the tests: real HTTP, every request kept (headers and raw body),
// answered as the test says (a status per attempt, a delay, held until the test lets it go, or no
// answer at all).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  /** The status of the nth request (0-based) when a test sets it; 204 otherwise. */
  answer: (
    index: number,
    delivery: ReceivedDelivery,
  ) => { status: number; delayMs?: number; body?: string; after?: Promise<void> };
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  until(count: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => ({ status: 204 }),
    async until(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${received.length} of ${count} deliveries arrived in time`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return received.slice(0, count);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = received.length;
      received.push(delivery);
      const { status, delayMs = 0, body, after = Promise.resolve() } = receiver.answer(index, delivery);
      // `after`: held until the test lets it go (an attempt kept in flight, whatever the time).
      void after.then(() =>
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(status).end(body);
        }, delayMs),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

/**
 * Resolves once `receiver` has a request (it answers each 204): what another receiver's answer can wait
 * for (`after`), so that "side by side" is shown by order alone, never by a clock.
 */
export function receivedBy(receiver: Receiver): Promise<void> {
  return new Promise((resolve) => {
    receiver.answer = () => {
      resolve();
      return { status: 204 };
    };
  });
}
