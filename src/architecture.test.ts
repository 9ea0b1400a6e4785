/**
 * The layers, as the code must keep them: each import points down, never up or sideways, and no
 * module reaches itself again through its imports. docs/architecture.md draws this same order.
 *
 * A unit is a folder of src/ (`src/state/`) or a file at its root (`src/index.ts`). Inside
 * `openapi/` and `mock/`, each folder or file is a part with a row of its own (INNER), and a
 * subfolder INNER names (`pipeline/stages`: the stages sit above the parts they compose, while the
 * rest of `pipeline/` is what a request carries, below them). Units (or parts) in one row
 * are siblings: neither imports the other. Type-only imports count too: a type that climbs is a
 * dependency that climbs. Tests and test support are outside the layers (they may import anything).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './test-support/petstore.js';
import { SRC, sourceFiles } from './test-support/source-files.js';

/**
 * Bottom to top: the folders of src/ (and the entries at its root). Three products (the mock, the
 * contract suite, the proxy) stand on one base (`openapi`: the document, its operations, values
 * from schemas, its compiled validators and the compiled document) and on `state`.
 */
export const LAYERS: readonly (readonly string[])[] = [
  // Leaves: errors and problems as data, the registry, media types, bytes, the package's files.
  ['core'],
  // The shared base: the document, its operations, generation, validation (their order: INNER).
  ['openapi'],
  // The records behind the store interface (memory, file, PostgreSQL), seeding, sessions.
  ['state'],
  // The three products, each above the one it may use: the suite judges any server (it uses the
  // mock's assembly only for --dry-run's in-process mock); the proxy uses the suite's checks and the mock.
  ['mock'],
  ['contract'],
  // The plugins extend the mock and the suite through the same extension points anyone's would.
  ['plugins'],
  ['proxy'],
  // The Node server, the library, the CLI, the entries.
  ['server'],
  ['library'],
  ['cli'],
  ['cli.ts', 'index', 'browser', 'msw'],
];

/** Bottom to top, inside the folders that hold several parts: the same rule holds between them. */
export const INNER: Readonly<Record<string, readonly (readonly string[])[]>> = {
  openapi: [['document'], ['operations'], ['generate'], ['validation']],
  mock: [
    // What a request carries between the stages; the parts the stages are made of.
    ['pipeline'],
    ['security', 'actions', 'routing', 'middleware'],
    ['respond'],
    ['scenarios'],
    // The stages of the per-request pipeline, one factory each, made once per operation from the parts above.
    ['pipeline/stages'],
    // The extension points (a plugin's shape) and the pipeline assembled for one operation.
    ['registries'],
    ['handle-operation'],
    // The mock's own endpoints; the assembly's parts; the assembly; reloading it (--watch).
    ['spec-endpoint', 'admin', 'oauth'],
    ['docs'],
    ['assembly'],
    ['mock-options'],
    ['app'],
    ['reload'],
  ],
};

interface Import {
  from: string;
  to: string;
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


/** `state/store.ts` is in `state`; `cli.ts` stays `cli.ts` (the entry, above the `cli` folder); `index.ts` is `index`. */
function unitOf(module: string): string {
  const [first, ...rest] = module.split('/');
  if (rest.length > 0) return first;
  return first === 'cli.ts' ? first : first.replace(/\.ts$/, '');
}

/** The part of an INNER folder a module is in: `mock/pipeline/stages/cors.ts` is `pipeline/stages`, `mock/pipeline/exchange.ts` `pipeline`, `mock/app.ts` `app`. */
function innerOf(module: string): string | undefined {
  const [first, ...rest] = module.split('/');
  const parts = INNER[first];
  if (!parts || rest.length === 0) return undefined;
  const named = new Set(parts.flat());
  if (rest.length > 2 && named.has(`${rest[0]}/${rest[1]}`)) return `${rest[0]}/${rest[1]}`;
  return rest.length > 1 ? rest[0] : rest[0]!.replace(/\.ts$/, '');
}

const rowOf = new Map(LAYERS.flatMap((row, index) => row.map((unit) => [unit, index] as const)));
const innerRowOf = (folder: string) => new Map(INNER[folder]!.flatMap((row, index) => row.map((unit) => [unit, index] as const)));

describe('the layers', () => {
  const all = sourceFiles();
  const edges = imports(all);

  it('place every module of src/ in a layer, in at most 12 folders', () => {
    const unplaced = [...new Set(all.map(unitOf))].filter((unit) => !rowOf.has(unit));
    expect(unplaced).toEqual([]);
    for (const folder of Object.keys(INNER)) {
      const parts = [...new Set(all.filter((m) => unitOf(m) === folder).map((m) => innerOf(m)!))];
      expect(parts.filter((part) => !innerRowOf(folder).has(part))).toEqual([]);
    }
    expect(readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory()).length).toBeLessThanOrEqual(12);
    // The scan sees the imports it should (a broken pattern would see none and pass everything).
    expect(edges.length).toBeGreaterThan(400);
    expect(edges).toContainEqual({ from: 'mock/app.ts', to: 'mock/assembly/reporting.ts' });
  });

  it('only import down: never a unit above, never a sibling', () => {
    const climbing = edges
      .filter(({ from, to }) => unitOf(from) !== unitOf(to) && rowOf.get(unitOf(to))! >= rowOf.get(unitOf(from))!)
      .map(({ from, to }) => `${from} -> ${to} (${unitOf(to)} is ${rowOf.get(unitOf(to)) === rowOf.get(unitOf(from)) ? 'a sibling' : 'above'})`);
    expect(climbing).toEqual([]);
  });

  it('only import down inside the folders that hold several parts', () => {
    const climbing = edges
      .filter(({ from, to }) => unitOf(from) === unitOf(to) && INNER[unitOf(from)] && innerOf(from) !== innerOf(to))
      .filter(({ from, to }) => {
        const rows = innerRowOf(unitOf(from));
        return rows.get(innerOf(to)!)! >= rows.get(innerOf(from)!)!;
      })
      .map(({ from, to }) => `${from} -> ${to} (${innerOf(to)} is not below ${innerOf(from)})`);
    expect(climbing).toEqual([]);
  });

  it('are drawn as they are in docs/architecture.md', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    // Each line: a label in its 18-character column, then the row's units separated by ` · `.
    const drawn = (name: string) => {
      const drawing = new RegExp(`<!-- ${name}: [^>]*-->\\n\`\`\`text\\n([^]*?)\`\`\``).exec(page)?.[1];
      expect(drawing, name).toBeDefined();
      return drawing!.trimEnd().split('\n').map((line) => line.slice(18).split(' · '));
    };
    expect(drawn('layers')).toEqual([...LAYERS].reverse());
    for (const folder of Object.keys(INNER)) expect(drawn(`inside ${folder}`)).toEqual([...INNER[folder]!].reverse());
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
