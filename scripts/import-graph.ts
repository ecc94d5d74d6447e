// The import graph of lib/ (and of local/, the local stack): every relative import between its files (static, type-only, re-exports and
// dynamic imports with a literal path), the cycles in it, and the imports that run back up the layer order
// test/unit/layers.test.ts names. `node scripts/toolchain.mjs node scripts/import-graph.ts` prints the
// counts (docs/architecture.md quotes them); the test holds them at zero.
// A few regular expressions rather than a dependency (madge, dependency-cruiser): lib/ imports only
// relative `.ts` paths, so a path in quotes after `from`/`import` is the whole grammar needed.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Files of a folder under the repository, relative to the repository (`lib/http/problem.ts`). */
export const sourcesOf = (dir: string): string[] =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file))
    .sort();

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)'(\.\.?\/[^']+)'/g;

/** The relative imports of one file, resolved to repository paths. */
export const importsOf = (file: string): string[] =>
  [...readFileSync(join(root, file), 'utf8').matchAll(IMPORT)].map((m) =>
    relative(root, join(dirname(join(root, file)), m[1] as string)),
  );

export interface Edge {
  from: string;
  to: string;
}

/** Every import from a file of `dir` to another file of `dir`. */
export function edgesWithin(dir: string): Edge[] {
  const files = new Set(sourcesOf(dir));
  return [...files].flatMap((from) =>
    [...new Set(importsOf(from))].filter((to) => files.has(to)).map((to) => ({ from, to })),
  );
}

/** The graph's cycles: its strongly connected components of more than one file (Tarjan's algorithm). */
export function cyclesOf(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * lib/'s layers, lowest first: a file may import its own layer and the ones below, never one above.
 * Each entry is a folder or a file of lib/; a file or folder named in no layer fails the test.
 */
export const LAYERS: { name: string; rule: string; members: string[] }[] = [
  {
    name: 'ground',
    rule: 'names, configuration, logging, the route and queue tables: imports nothing of lib/ above it',
    members: [
      'tenant.ts',
      'ids.ts',
      'zod.ts',
      'config.ts',
      'log.ts',
      'log-format.ts',
      'trace.ts',
      'metrics.ts',
      'queue-names.ts',
      'queues.ts',
      'reserved-concurrency.ts',
      'secret-names.ts',
      'stage-targets.ts',
      'routes.ts',
      'reference',
    ],
  },
  {
    name: 'http',
    rule: 'the Middy chain, problems and replies: no domain, no AWS client, no table (lib/api.ts hands it its services)',
    members: ['http'],
  },
  {
    name: 'store',
    rule: 'the table (entities, keys, conditions, cursors), the AWS clients and secrets, sealing',
    members: ['db', 'aws', 'secret-box.ts'],
  },
  {
    name: 'adapters',
    rule: 'what every domain may use and none owns: the ledger, the providers, request limits',
    members: ['ledger', 'providers', 'limits'],
  },
  {
    name: 'domains',
    rule: "one folder per resource (schema, repo, service); another domain's data only through its service",
    members: [
      'assets',
      'auth',
      'keys',
      'people',
      'request-log',
      'connectors',
      'customers',
      'onramp-references',
      'beneficiaries',
      'quotes',
      'wallets',
      'notifications',
      'webhooks',
      'payments',
      'statements',
      'outbox.ts',
      'outbox-reconciler.ts',
    ],
  },
  {
    name: 'operations',
    rule: "each route's operation (parse, call a service, reply) and the chain's composition root",
    members: ['operations', 'api.ts', 'provider-api.ts'],
  },
  {
    name: 'tools',
    rule: "the admin CLI's work and the ledger admin function's (functions/admin/ledger-accounts.ts bundles it)",
    members: ['admin'],
  },
];

/** The layer of a file of lib/ (by its folder or its own name), or undefined when no layer names it. */
export function layerOf(file: string): number | undefined {
  const inLib = relative('lib', file);
  const top = inLib.split('/')[0] as string;
  const at = LAYERS.findIndex((layer) => layer.members.includes(top));
  return at === -1 ? undefined : at;
}

/** Imports from a lower layer to a higher one. */
export const backUpImports = (edges: Edge[]): Edge[] =>
  edges.filter(({ from, to }) => (layerOf(to) ?? -1) > (layerOf(from) ?? Number.POSITIVE_INFINITY));

/** The counts the layers test holds and docs/architecture.md quotes. */
export function graphCounts(dir: string) {
  const edges = edgesWithin(dir);
  const cycles = cyclesOf(edges);
  return {
    files: sourcesOf(dir).length,
    edges: edges.length,
    backUp: backUpImports(edges),
    cycles,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const dir of ['lib', 'local']) {
    const { files, edges, backUp, cycles } = graphCounts(dir);
    console.log(`${dir}/: ${files} files, ${edges} imports between them`);
    if (dir === 'lib') console.log(`imports running back up the layers: ${backUp.length}`);
    for (const { from, to } of dir === 'lib' ? backUp : []) console.log(`  ${from} -> ${to}`);
    console.log(`cycles: ${cycles.length} (${cycles.reduce((n, c) => n + c.length, 0)} files in them)`);
    for (const cycle of cycles)
      console.log(`  ${cycle.length} files: ${cycle.slice(0, 6).join(', ')}${cycle.length > 6 ? ', …' : ''}`);
  }
}
