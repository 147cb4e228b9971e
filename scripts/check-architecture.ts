/**
 * The layout rules that no linter checks (README, "Architecture"): no file under a service's or
 * package's `src/` is over 450 lines, no two modules import each other (directly or round a
 * longer cycle), no service imports another service, and the browser app imports no workspace
 * code.
 * Prints each breach and exits 1 when there is one; `pnpm lint` runs it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const MAX_LINES = 450;
const SOURCE = /\.(ts|tsx)$/;
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `services/api`, `packages/core` … : the workspace part a file belongs to. */
function partOf(file: string): string {
  const [top, name] = relative(ROOT, file).split('/');
  return top === 'services' || top === 'packages' ? `${top}/${name}` : (top ?? '');
}

const parts = ['services', 'packages'].flatMap((top) =>
  readdirSync(join(ROOT, top), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(ROOT, top, entry.name)),
);
const files = [
  ...parts.flatMap((part) => sourceFiles(join(part, 'src'))),
  ...parts.flatMap((part) => sourceFiles(join(part, 'server'))),
  ...sourceFiles(join(ROOT, 'embedded')),
];
const breaches: string[] = [];
const graph = new Map<string, string[]>();

for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const name = relative(ROOT, file);
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_LINES && /\/src\//.test(name)) {
    breaches.push(`${name}: ${lines} lines (at most ${MAX_LINES})`);
  }
  const targets: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2] ?? '';
    if (spec.startsWith('.')) {
      targets.push(resolve(dirname(file), spec));
      continue;
    }
    const imported = /^@radio\/([\w-]+)/.exec(spec)?.[1];
    if (!imported) continue;
    const from = partOf(file);
    if (name.startsWith('services/web/src/') && !name.includes('.test.')) {
      // The browser app meets the api over HTTP only; its server may use core (config, logs).
      breaches.push(`${name}: the web app imports workspace code (${spec})`);
    } else if (
      from.startsWith('services/') &&
      parts.some((p) => p.endsWith(`services/${imported}`))
    ) {
      if (from !== `services/${imported}`) breaches.push(`${name}: a service imports ${spec}`);
    }
  }
  graph.set(file, targets);
}

// Tarjan's strongly connected components: every component of two or more files is a cycle.
let counter = 0;
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
function visit(file: string): void {
  index.set(file, counter);
  low.set(file, counter);
  counter += 1;
  stack.push(file);
  onStack.add(file);
  for (const next of graph.get(file) ?? []) {
    if (!graph.has(next)) continue;
    if (!index.has(next)) {
      visit(next);
      low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
    } else if (onStack.has(next)) {
      low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
    }
  }
  if (low.get(file) !== index.get(file)) return;
  const component: string[] = [];
  let member: string | undefined;
  do {
    member = stack.pop() as string;
    onStack.delete(member);
    component.push(relative(ROOT, member));
  } while (member !== file);
  if (component.length > 1) breaches.push(`import cycle: ${component.sort().join(' ↔ ')}`);
}
for (const file of graph.keys()) if (!index.has(file)) visit(file);

for (const breach of breaches) console.error(breach);
console.log(
  `architecture: ${files.length} files, ${breaches.length === 0 ? 'no breaches' : `${breaches.length} breaches`}`,
);
process.exitCode = breaches.length === 0 ? 0 : 1;
