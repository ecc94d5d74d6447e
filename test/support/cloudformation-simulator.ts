// CloudFormation's DescribeStacks on loopback, in its own wire protocol (AWS Query: a form-encoded POST,
// an XML answer), for the admin CLI's --stage path: there is no local CloudFormation, and this is the one
// call the CLI makes to it. Stacks are what the test says they are.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface SimulatedStack {
  stackName: string;
  account: string;
  region: string;
  status: string;
  outputs: Record<string, string>;
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

export async function startCloudFormationSimulator(
  stacks: readonly SimulatedStack[],
): Promise<CloudFormationSimulator> {
  const described: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk;
    });
    req.on('end', () => {
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
      const stack = stacks.find((s) => s.stackName === name);
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
