// The AWS account as the admin CLI reads it, on loopback, each call in its service's own wire protocol:
// CloudFormation's DescribeStacks (AWS Query: a form-encoded POST, an XML answer) for --stage and the
// preflight's bootstrap check, Lambda's GetAccountSettings (REST-JSON) and ACM's DescribeCertificate
// (JSON 1.1) for the preflight. There is no local CloudFormation, Lambda quota or ACM, and these are the
// only calls the CLI makes to them. Stacks, quotas and certificates are what the test says they are; the
// region of a call is the one its SigV4 signature names, as in AWS, so one endpoint serves every region.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface SimulatedStack {
  stackName: string;
  account: string;
  region: string;
  status: string;
  outputs: Record<string, string>;
}

export interface SimulatedCertificate {
  arn: string;
  status: 'ISSUED' | 'PENDING_VALIDATION' | 'EXPIRED' | 'FAILED';
  /** Its DomainName, then its other SubjectAlternativeNames; `api.example.com` when not named. */
  names?: readonly string[];
}

/** The account beside its stacks: Lambda's concurrency quota by region (1,000 when not named), its certificates. */
export interface SimulatedAccount {
  concurrentExecutions?: Record<string, number>;
  certificates?: SimulatedCertificate[];
}

export interface CloudFormationSimulator {
  endpoint: string;
  /** DescribeStacks calls received, by StackName. */
  described: string[];
  stop(): Promise<void>;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );

const NAMESPACE = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

function stackXml(stack: SimulatedStack): string {
  const outputs = Object.entries(stack.outputs)
    .map(
      ([key, value]) =>
        `<member><OutputKey>${escapeXml(key)}</OutputKey><OutputValue>${escapeXml(value)}</OutputValue></member>`,
    )
    .join('');
  const stackId = `arn:aws:cloudformation:${stack.region}:${stack.account}:stack/${stack.stackName}/${randomUUID()}`;
  return (
    `<member><StackName>${escapeXml(stack.stackName)}</StackName><StackId>${stackId}</StackId>` +
    `<CreationTime>2026-11-23T00:00:00.000Z</CreationTime><StackStatus>${stack.status}</StackStatus>` +
    `<Outputs>${outputs}</Outputs></member>`
  );
}

/** The region a SigV4 request was signed for: `Credential=<key>/<date>/<region>/<service>/aws4_request`. */
const signedRegion = (authorization: string | undefined) =>
  /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(authorization ?? '')?.[1] ?? '';

export async function startCloudFormationSimulator(
  stacks: readonly SimulatedStack[],
  account: SimulatedAccount = {},
): Promise<CloudFormationSimulator> {
  const described: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    req.on('end', () => {
      const region = signedRegion(req.headers.authorization);
      // Lambda (REST-JSON): GET /2016-08-19/account-settings.
      if (req.method === 'GET' && req.url?.startsWith('/2016-08-19/account-settings')) {
        const limit = account.concurrentExecutions?.[region] ?? 1000;
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            AccountLimit: { ConcurrentExecutions: limit, UnreservedConcurrentExecutions: limit },
            AccountUsage: { FunctionCount: 0 },
          }),
        );
        return;
      }
      // ACM (JSON 1.1): the operation in X-Amz-Target.
      if (req.headers['x-amz-target'] === 'CertificateManager.DescribeCertificate') {
        const { CertificateArn } = JSON.parse(body) as { CertificateArn: string };
        const found = account.certificates?.find(
          (c) => c.arn === CertificateArn && c.arn.split(':')[3] === region,
        );
        res.setHeader('Content-Type', 'application/x-amz-json-1.1');
        if (!found) {
          res.statusCode = 400;
          res.end(
            JSON.stringify({
              __type: 'ResourceNotFoundException',
              message: `Could not find certificate ${CertificateArn}.`,
            }),
          );
          return;
        }
        res.end(
          JSON.stringify({
            Certificate: {
              CertificateArn,
              DomainName: found.names?.[0] ?? 'api.example.com',
              // ACM lists the DomainName among the SubjectAlternativeNames too.
              SubjectAlternativeNames: found.names ?? ['api.example.com'],
              Status: found.status,
            },
          }),
        );
        return;
      }
      const form = new URLSearchParams(body);
      const requestId = randomUUID();
      res.setHeader('Content-Type', 'text/xml');
      res.setHeader('x-amzn-RequestId', requestId);
      const fail = (status: number, code: string, message: string) => {
        res.statusCode = status;
        res.end(
          `<ErrorResponse xmlns="${NAMESPACE}"><Error><Type>Sender</Type><Code>${code}</Code>` +
            `<Message>${escapeXml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
        );
      };
      if (form.get('Action') !== 'DescribeStacks') return fail(400, 'InvalidAction', 'Not simulated');
      const name = form.get('StackName') ?? '';
      described.push(name);
      const stack = stacks.find((s) => s.stackName === name && s.region === region);
      if (!stack) return fail(400, 'ValidationError', `Stack with id ${name} does not exist`);
      res.end(
        `<DescribeStacksResponse xmlns="${NAMESPACE}"><DescribeStacksResult><Stacks>${stackXml(stack)}` +
          `</Stacks></DescribeStacksResult><ResponseMetadata><RequestId>${requestId}</RequestId>` +
          '</ResponseMetadata></DescribeStacksResponse>',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    described,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
