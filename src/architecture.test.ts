/**
 * The layers, as the code must keep them: each import points down, never up or sideways, and no
 * module reaches itself again through its imports. docs/architecture.md draws this same order.
 *
 * A unit is a folder of src/ (`src/state/`), a file at its root (`src/app.ts`), or a subfolder that
 * LAYERS names on its own (`pipeline/stages`: the stages sit above the parts they compose, while
 * the rest of `pipeline/` is what a request carries, below them). Units in one row
 * are siblings: neither imports the other. Type-only imports count too: a type that climbs is a
 * dependency that climbs. Tests and test support are outside the layers (they may import anything).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './test-support/petstore.js';

/** Bottom to top. */
export const LAYERS: readonly (readonly string[])[] = [
  // Leaves: errors and problems as data, the registry, media types, bytes, the package's files.
  ['core'],
  // The document, read, validated and dereferenced; its operations, flattened once.
  ['document'],
  ['operations'],
  // Values from schemas; the document's compiled validators; the state behind its store interface.
  ['generate'],
  ['validation'],
  ['state'],
  // What a request carries between the stages, then the stages of the per-request pipeline.
  ['pipeline'],
  ['security', 'actions', 'routing', 'middleware'],
  ['respond'],
  ['scenarios'],
  // The stages of the per-request pipeline, one factory each, made once per operation from the parts above.
  ['pipeline/stages'],
  // The extension points (a plugin's shape) and the pipeline assembled for one operation.
  ['registries'],
  ['handle-operation'],
  // The mock's own endpoints.
  ['spec-endpoint', 'admin', 'oauth'],
  ['docs'],
  // The parts of the assembly: who hears of each answer, the own endpoints, one pipeline per operation.
  ['assembly'],
  // The assembly and the contract suite, the plugins that extend both, then the library and the entries.
  ['mock-options'],
  ['app'],
  ['contract'],
  ['plugins'],
  ['proxy'],
  ['server'],
  ['library', 'reload'],
  ['cli'],
  ['cli.ts', 'index', 'browser', 'msw'],
];

const SRC = join(ROOT, 'src');

interface Import {
  from: string;
  to: string;
}

/** Every source module of src/ (tests and test support left out), by its path from src/. */
function modules(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'test-support') walk(path);
      } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$|\.d\.ts$/.test(entry.name)) {
        found.push(relative(SRC, path));
      }
    }
  };
  walk(SRC);
  return found.sort();
}

/** The relative imports (and re-exports) of each module that name another module of src/. */
function imports(all: readonly string[]): Import[] {
  const known = new Set(all);
  const edges: Import[] = [];
  for (const from of all) {
    const text = readFileSync(join(SRC, from), 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\b[^;'"]*?from\s+'(\.{1,2}\/[^']+)'|^\s*import\s+'(\.{1,2}\/[^']+)'|\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/gm)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      const to = normalize(join(dirname(from), specifier)).replace(/\.js$/, '.ts');
      if (known.has(to)) edges.push({ from, to });
    }
  }
  return edges;
}

/** The subfolders that are units of their own. */
const SUBFOLDER_UNITS = new Set(LAYERS.flat().filter((unit) => unit.includes('/')));

/** `state/store.ts` is in `state`, `pipeline/stages/act.ts` in `pipeline/stages`; `app.ts` is `app`, `cli.ts` stays `cli.ts` (the entry, above the `cli` folder). */
function unitOf(module: string): string {
  const [first, ...rest] = module.split('/');
  if (rest.length > 1 && SUBFOLDER_UNITS.has(`${first}/${rest[0]}`)) return `${first}/${rest[0]}`;
  if (rest.length > 0) return first;
  return first === 'cli.ts' ? first : first.replace(/\.ts$/, '');
}

const rowOf = new Map(LAYERS.flatMap((row, index) => row.map((unit) => [unit, index] as const)));

describe('the layers', () => {
  const all = modules();
  const edges = imports(all);

  it('place every module of src/ in a layer', () => {
    const unplaced = [...new Set(all.map(unitOf))].filter((unit) => !rowOf.has(unit));
    expect(unplaced).toEqual([]);
    // The scan sees the imports it should (a broken pattern would see none and pass everything).
    expect(edges.length).toBeGreaterThan(400);
    expect(edges).toContainEqual({ from: 'app.ts', to: 'assembly/reporting.ts' });
  });

  it('only import down: never a unit above, never a sibling', () => {
    const climbing = edges
      .filter(({ from, to }) => unitOf(from) !== unitOf(to) && rowOf.get(unitOf(to))! >= rowOf.get(unitOf(from))!)
      .map(({ from, to }) => `${from} -> ${to} (${unitOf(to)} is ${rowOf.get(unitOf(to)) === rowOf.get(unitOf(from)) ? 'a sibling' : 'above'})`);
    expect(climbing).toEqual([]);
  });

  it('are drawn as they are in docs/architecture.md', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const drawing = /<!-- layers: [^>]*-->\n```text\n([^]*?)```/.exec(page)?.[1];
    expect(drawing).toBeDefined();
    // Each line: a label in its 18-character column, then the row's units separated by ` · `.
    const rows = drawing!.trimEnd().split('\n').map((line) => line.slice(18).split(' · '));
    expect(rows).toEqual([...LAYERS].reverse());
  });

  it('have no import cycles between modules', () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (module: string) => {
      state.set(module, 'open');
      path.push(module);
      for (const to of next.get(module) ?? []) {
        if (state.get(to) === 'open') cycles.push([...path.slice(path.indexOf(to)), to].join(' -> '));
        else if (!state.has(to)) visit(to);
      }
      path.pop();
      state.set(module, 'done');
    };
    for (const module of all) if (!state.has(module)) visit(module);
    expect(cycles).toEqual([]);
  });

  it('give every folder with code a test beside it that imports it directly', () => {
    const folders = [...new Set(all.map((module) => dirname(module)))].filter((folder) => folder !== '.');
    const untested = folders.filter((folder) => {
      const tests = readdirSync(join(SRC, folder)).filter((name) => /\.test\.ts$/.test(name));
      return !tests.some((name) => /from\s+'\.\/[^']+\.js'/.test(readFileSync(join(SRC, folder, name), 'utf8')));
    });
    expect(folders.length).toBeGreaterThan(20);
    expect(untested).toEqual([]);
  });
});
