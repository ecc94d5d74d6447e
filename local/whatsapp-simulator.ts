// The WhatsApp simulator: a real HTTP service on loopback that speaks the part of the WhatsApp Business
// Cloud API the notifier uses (POST /{version}/{phone-number-id}/messages, a bearer access token, a
// template message), answering as Meta's Graph API does, and keeping what it received.
//
// - A request without the access token the stack put in the token secret answers 401, one for another
//   phone number id 404, one that is not a template message with its body parameters 400 (Graph's
//   error body), as the API would.
// - Test control: GET /messages lists what it accepted (`to`, template name and language, parameters);
//   POST /faults {to, status} answers `status` to every message for that recipient from then on (tests
//   running side by side do not meet each other's faults); {to, status: null} clears it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from './ports.ts';

export interface ReceivedWhatsApp {
  id: string;
  to: string;
  template: string;
  language: string;
  parameters: string[];
  at: string;
}

export interface WhatsAppSimulator {
  url: string;
  stop(): Promise<void>;
}

interface MessageBody {
  messaging_product?: string;
  to?: string;
  type?: string;
  template?: {
    name?: string;
    language?: { code?: string };
    components?: { type?: string; parameters?: { type?: string; text?: string }[] }[];
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

const reply = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/** Graph's error body. */
const graphError = (res: ServerResponse, status: number, message: string, code: number) =>
  reply(res, status, { error: { message, type: 'OAuthException', code, fbtrace_id: randomUUID() } });

export async function startWhatsAppSimulator(options: {
  phoneNumberId: string;
  accessToken: string;
}): Promise<WhatsAppSimulator> {
  const received: ReceivedWhatsApp[] = [];
  const faults = new Map<string, number>();
  const messagesPath = /^\/v\d+\.\d+\/([^/]+)\/messages$/;

  const accept = (req: IncomingMessage, res: ServerResponse, body: MessageBody) => {
    if (req.headers.authorization !== `Bearer ${options.accessToken}`)
      return graphError(res, 401, 'Invalid OAuth access token.', 190);
    const parameters = body.template?.components
      ?.find((component) => component.type === 'body')
      ?.parameters?.map((parameter) => parameter.text ?? '');
    if (body.messaging_product !== 'whatsapp' || body.type !== 'template' || !body.to || !parameters)
      return graphError(res, 400, '(#100) Invalid parameter', 100);
    const fault = faults.get(body.to);
    if (fault) return graphError(res, fault, 'Service temporarily unavailable', 2);
    const message: ReceivedWhatsApp = {
      id: `wamid.${randomUUID()}`,
      to: body.to,
      template: body.template?.name ?? '',
      language: body.template?.language?.code ?? '',
      parameters,
      at: new Date().toISOString(),
    };
    received.push(message);
    reply(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: body.to.replace(/^\+/, '') }],
      messages: [{ id: message.id }],
    });
  };

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://simulator').pathname;
    if (req.method === 'GET' && path === '/messages') return reply(res, 200, { messages: received });
    const body = (await readJson(req)) as Record<string, unknown> | undefined;
    if (req.method === 'POST' && path === '/faults') {
      const to = typeof body?.to === 'string' ? body.to : '';
      if (typeof body?.status === 'number') faults.set(to, body.status);
      else faults.delete(to);
      return reply(res, 200, { faults: Object.fromEntries(faults) });
    }
    const phoneNumberId = req.method === 'POST' ? messagesPath.exec(path)?.[1] : undefined;
    if (!phoneNumberId) return graphError(res, 404, 'Unknown path components', 2500);
    if (phoneNumberId !== options.phoneNumberId)
      return graphError(
        res,
        404,
        `Unsupported post request. Object with ID '${phoneNumberId}' does not exist`,
        100,
      );
    accept(req, res, (body ?? {}) as MessageBody);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => closeServer(server),
  };
}
