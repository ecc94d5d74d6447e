#!/usr/bin/env node
// A jq stand-in for the examples, so they need only Node (any version from 20): reads JSON on stdin
// and prints the value at a jq-style path (`.member`, `[index]`), so `jq -r <path>` reads the same.
// Strings print raw (like `jq -r`), anything else as indented JSON.
//
//   node examples/json.mjs .accessToken < token.json      → eyJ…
//   node examples/json.mjs '.data[0].assetCode' < assets.json
//   node examples/json.mjs < wallet.json                   → the whole document
//
// A path that names nothing prints an error and exits 1, so a script under `set -e` stops there.

import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? '.';
const input = readFileSync(0, 'utf8');

let value;
try {
  value = JSON.parse(input);
} catch {
  process.stderr.write(`json.mjs: stdin is not JSON: ${input.slice(0, 200)}\n`);
  process.exit(1);
}

const steps = path === '.' ? [] : path.match(/\.[A-Za-z_$][\w$]*|\[\d+\]/g);
if (steps === null || (path !== '.' && steps.join('') !== path)) {
  process.stderr.write(`json.mjs: unsupported path ${path} (use .member and [index], e.g. .data[0].id)\n`);
  process.exit(1);
}

for (const step of steps) {
  const member = step.startsWith('[') ? step.slice(1, -1) : step.slice(1);
  if (value === null || typeof value !== 'object' || !(member in value)) {
    process.stderr.write(`json.mjs: no ${path} in ${JSON.stringify(value).slice(0, 200)}\n`);
    process.exit(1);
  }
  value = value[member];
}

process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
