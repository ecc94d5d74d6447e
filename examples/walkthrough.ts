// The walkthrough of examples/walkthrough.sh, written with the typed client (clients/typescript): token,
// wallets, funding, a beneficiary, a P2P payment retried safely and waited on until settled, the
// transaction list, a webhook received and verified with one call, and a refusal read as a typed problem.
//
//   npm start                                  # in another terminal (writes .local/credentials.json)
//   npm run build                              # builds the client (types generated from the document)
//   node scripts/toolchain.mjs node examples/walkthrough.ts
//
// CREDENTIALS=<file> reads another credentials file (the members of .local/credentials.json).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiProblem, createGateway, verifyWebhook, type WebhookEvent } from '@payments-gateway/client';

const file = process.env.CREDENTIALS ?? new URL('../.local/credentials.json', import.meta.url).pathname;
const credentials = JSON.parse(readFileSync(file, 'utf8')) as {
  baseUrl: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
};
const step = (title: string) => console.log(`\n== ${title}`);
/** Every value printed with what it is: `P2P replay isIdempotent: true`, as examples/walkthrough.sh prints. */
const says = (label: string, value: unknown) => console.log(`${label}: ${value}`);

const gateway = createGateway(credentials);
const { api, ok } = gateway;

step('Assets of the sandbox registry (the token is fetched, and renewed, by the client)');
const assets = ok(await api.GET('/assets', { params: { query: { limit: 50 } } }));
says('assets', assets.data.map((asset) => asset.assetCode).join(' '));

step('Wallets: an own wallet, funded; a third-party one whose KYC the sandbox helper settles');
const own = ok(
  await api.POST('/wallets', { body: { walletName: 'Treasury', assetCode: 'USDC', ownAccount: true } }),
);
const supplier = ok(
  await api.POST('/wallets', {
    body: {
      walletName: 'Supplier',
      assetCode: 'USDC',
      metadata: {
        entityType: 'Business',
        registeredName: 'Acme',
        registrationNumber: '123',
        registrationCountry: 'ke',
      },
    },
  }),
);
const kyc = ok(
  await api.POST('/sandbox/wallets/{walletId}/kyc', {
    params: { path: { walletId: supplier.id } },
    body: { decision: 'Verified' },
  }),
);
says('third-party wallet status', kyc.status);
ok(
  await api.POST('/sandbox/wallets/{walletId}/fund', {
    params: { path: { walletId: own.id } },
    body: { assetCode: 'USDC', amount: 1000 },
  }),
);
const funded = ok(await api.GET('/wallets/{walletId}', { params: { path: { walletId: own.id } } }));
says('own wallet balances', (funded.balances ?? []).map((b) => `${b.assetCode} ${b.balance}`).join(', '));

step('Payments: a P2P to a second own wallet, sent twice with one transactionId, then waited on');
const savings = ok(
  await api.POST('/wallets', { body: { walletName: 'Savings', assetCode: 'USDC', ownAccount: true } }),
);
const p2p = {
  transactionId: gateway.newTransactionId(),
  walletId: own.id,
  destinationWalletId: savings.id,
  sendingAssetCode: 'USDC',
  amount: 25.5,
  fromRef: 'RENT-11',
};
const accepted = ok(await api.POST('/payments/p2p/own', { body: p2p }));
const replayed = ok(await api.POST('/payments/p2p/own', { body: p2p }));
says('P2P replay isIdempotent', replayed.isIdempotent);
says(
  'P2P replay has the same transactionRecordId',
  replayed.transactionRecordId === accepted.transactionRecordId,
);
const settled = await gateway.waitForSettlement(accepted.transactionRecordId);
says('P2P status', settled.status);
says('P2P type', settled.type);
const listed = ok(await api.GET('/transactions', { params: { query: { walletId: own.id, limit: 5 } } }));
says('transactions listed', listed.data.length);

step('A refusal is an ApiProblem naming the member: 8 decimals is one too many');
try {
  ok(
    await api.POST('/payments/p2p/own', {
      body: { ...p2p, transactionId: gateway.newTransactionId(), amount: 1.00000001 },
    }),
  );
} catch (error) {
  if (!(error instanceof ApiProblem)) throw error;
  says('refused with', error.status);
  says('amount', error.fieldError('amount'));
}

step('Webhooks: a receiver on this machine (the local stack allows loopback), one delivery verified');
let registration = { id: '', secret: '' };
const delivered = new Promise<WebhookEvent>((resolve, reject) => {
  const receiver = createServer((request, response) => {
    let body = '';
    request
      .on('data', (chunk) => (body += chunk))
      .on('end', () => {
        try {
          const event = verifyWebhook(body, request.headers, registration);
          response.writeHead(204).end();
          receiver.close();
          resolve(event);
        } catch (error) {
          response.writeHead(400).end();
          reject(error);
        }
      });
  });
  receiver.listen(0, '127.0.0.1', async () => {
    const { port } = receiver.address() as AddressInfo;
    const created = ok(
      await api.POST('/webhooks', { body: { url: `http://127.0.0.1:${port}/hooks`, events: ['*'] } }),
    );
    registration = { id: created.id, secret: created.secret };
    // An event to deliver: a second P2P.
    const again = { ...p2p, transactionId: gateway.newTransactionId(), amount: 1 };
    ok(await api.POST('/payments/p2p/own', { body: again }));
  });
});
const event = await delivered;
says('webhook delivery verified', event.type);
ok(await api.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId: registration.id } } }));

step('Done');
