// What the test stack's traffic log holds (test/setup.ts writes `npm start`'s lines to its data folder).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const trafficLines = (): string[] => {
  const file = join(process.env.TEST_DATA_DIR ?? '', 'traffic.log');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
};

/** The first line of the stack's traffic that matches, once it has been written. */
export async function lineMatching(pattern: RegExp): Promise<string> {
  for (let tries = 0; tries < 400; tries++) {
    const line = trafficLines().find((l) => pattern.test(l));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return assert.fail(`no traffic line matches ${pattern}:\n${trafficLines().slice(-20).join('\n')}`);
}
