// What the local stack's functions print, kept as CloudWatch Logs keeps it in AWS. A function prints
// one JSON object a line: the logger's lines and the metrics' embedded metric format lines. Every such
// line the stack's process writes is appended to FUNCTION_OUTPUT_FILE in its data folder (emptied at
// each start): `npm run admin -- metrics` sums the metrics of the last minutes from it, and a test
// follows a payment through it. The terminal shows the logger's lines at the level asked for (LOG_LEVEL)
// and no metric line; the file has every line at INFO and above (DEBUG when asked for).
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

export const FUNCTION_OUTPUT_FILE = 'function-output.jsonl';

export const functionOutputPath = (dataDir: string) => join(dataDir, FUNCTION_OUTPUT_FILE);

const LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'];
const rank = (level: string) => LEVELS.indexOf(level.toUpperCase());

/** The level the functions log at: what the file keeps, at most INFO whatever the terminal shows. */
export const keptLevelOf = (printLevel: string) => (rank(printLevel) > rank('INFO') ? 'INFO' : printLevel);

interface FunctionLine {
  text: string;
  /** The logger's level; none for a metric line. */
  level: string | null;
}

/** The chunk's lines when each is a function's (a JSON object with `level` or `_aws`), else undefined. */
function functionLinesOf(text: string): FunctionLine[] | undefined {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0 || !lines.every((line) => line.startsWith('{') && line.endsWith('}')))
    return undefined;
  const kept: FunctionLine[] = [];
  for (const line of lines) {
    let parsed: { level?: unknown; _aws?: unknown };
    try {
      parsed = JSON.parse(line);
    } catch {
      return undefined;
    }
    if (typeof parsed.level === 'string') kept.push({ text: line, level: parsed.level });
    else if (parsed._aws !== undefined) kept.push({ text: line, level: null });
    else return undefined;
  }
  return kept;
}

export interface FunctionOutput {
  stop(): Promise<void>;
}

/** Keeps this process's function lines in `file`; prints the logger's at `printLevel` and above. */
export function keepFunctionOutput(file: string, printLevel: string): FunctionOutput {
  const out = createWriteStream(file, { flags: 'w' });
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    const original = originals[index] as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
      const lines = functionLinesOf(text);
      if (!lines) return original.call(stream, chunk, ...rest);
      for (const line of lines) out.write(`${line.text}\n`);
      const shown = lines.filter((line) => line.level !== null && rank(line.level) >= rank(printLevel));
      if (shown.length > 0)
        return original.call(stream, `${shown.map((line) => line.text).join('\n')}\n`, ...rest);
      (rest.find((arg) => typeof arg === 'function') as (() => void) | undefined)?.();
      return true;
    }) as typeof stream.write;
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        streams.forEach((stream, index) => {
          stream.write = originals[index] as typeof stream.write;
        });
        out.end(() => resolve());
      }),
  };
}
