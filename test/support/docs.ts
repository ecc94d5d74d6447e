// The docs' commands and quoted messages, read from the Markdown itself: a test runs a command as a doc
// shows it, or checks a message a doc quotes, so the doc cannot say what the code does not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A doc's text (`docs/production.md`: repository-relative). */
export const docText = (file: string): string => readFileSync(join(root, file), 'utf8');

/** Every fenced `sh` block of a doc, each as its lines, indentation (a list item's) removed. */
export function shBlocks(file: string): string[][] {
  return [...docText(file).matchAll(/^( *)```sh\n([\s\S]*?)^\1```/gm)].map(([, indent = '', body = '']) =>
    body
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(indent.length)),
  );
}

/**
 * The words of the doc's one sh block whose command starts with `start` (its `\`-continued lines joined;
 * the block's words need no shell quoting).
 */
export function docCommand(file: string, start: string): string[] {
  const block = shBlocks(file).find((lines) => lines[0]?.startsWith(start));
  if (!block) throw new Error(`${file} has no sh block starting with ${start}`);
  return block.join('\n').replace(/\\\n/g, ' ').split(/\s+/).filter(Boolean);
}

/** The `-c name=value` contexts of a CDK command's words. */
export function contextsOf(words: string[]): Record<string, string> {
  const context: Record<string, string> = {};
  words.forEach((word, i) => {
    if (word !== '-c') return;
    const [name = '', ...value] = (words[i + 1] ?? '').split('=');
    context[name] = value.join('=');
  });
  return context;
}

/** The messages a doc quotes in backticks that start with `start`, their line breaks as spaces. */
export const quotedMessages = (file: string, start: string): string[] =>
  [
    ...docText(file)
      .replace(/^( *)```[\s\S]*?^\1```/gm, '')
      .matchAll(/`([^`]+)`/g),
  ]
    .map(([, text = '']) => text.replace(/\s+/g, ' '))
    .filter((text) => text.startsWith(start));
