// The log lines a function prints while a test runs it in this process. Powertools Logger writes one
// JSON object per line, to stdout (debug, info) or stderr (warn, error); those are kept here instead of
// printed, and anything else passes through.
import { logger } from '../../lib/log.ts';

export type LogLine = Record<string, unknown>;

export interface CapturedLogs {
  lines: LogLine[];
  restore(): void;
}

function logLinesOf(chunk: unknown): LogLine[] | undefined {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  try {
    const lines = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as LogLine);
    return lines.length > 0 && lines.every((line) => typeof line?.level === 'string') ? lines : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Captures every line the logger writes, at every level: the test stack logs at ERROR to keep provoked
 * warnings out of the report, and a test that asserts on a warning must still see it.
 */
export function captureLogs(): CapturedLogs {
  const lines: LogLine[] = [];
  const level = logger.getLevelName();
  logger.setLogLevel('DEBUG');
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    const original = originals[index] as typeof stream.write;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const logged = logLinesOf(chunk);
      if (logged) {
        lines.push(...logged);
        const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
        callback?.();
        return true;
      }
      return (original as (...args: unknown[]) => boolean).call(stream, chunk, ...rest);
    }) as typeof stream.write;
  });
  return {
    lines,
    restore: () => {
      logger.setLogLevel(level);
      streams.forEach((stream, index) => {
        stream.write = originals[index] as typeof stream.write;
      });
    },
  };
}
