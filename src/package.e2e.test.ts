/**
 * The package as a user gets it: `npm pack` (a copy of the checkout, so the build it runs does not
 * change dist/ under the other tests), then `npm install` of the tarball in an empty project, and
 * the ways people use it: the bin's help, `serve` answering, `contract` against it, an ESM import
 * of the library, and `tsc --strict` on the programs of test/types (one using its types, one
 * misusing them line by line), and the declaration files themselves. The figures for the package
 * (docs/library.md) are checked here too.
 * The install needs the npm registry (the declared dependencies, msw and vitest).
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './core/package-root.js';
import { anyTypes, declaredValues, unexportedTypes } from './test-support/declarations.js';
import { copyCheckout } from './test-support/checkout-copy.js';
import { startProcess, type StartedProcess } from './test-support/processes.js';
import { readmeBlocks } from './test-support/readme-commands.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TSC = join(PACKAGE_ROOT, 'node_modules/typescript/bin/tsc');
const work = mkdtempSync(join(tmpdir(), 'pack-'));
const project = join(work, 'project');
let tarball: string;
let files: string[];
let server: StartedProcess | undefined;
/** A frontend project's settings: the DOM's fetch types, no @types/node. */
const compilerOptions = { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'], types: [], skipLibCheck: false };
/** Programs using the package's types (each line must compile) and misusing them (each marked line must fail), in test/types. */
const TYPE_PROGRAMS = ['uses-types.ts', 'misuses-types.ts'];
/** The library's page, whose TypeScript examples are checked here, with the proxy's (`createProxy`). */
const LIBRARY_PAGE = join(PACKAGE_ROOT, 'docs/library.md');
const TYPESCRIPT_PAGES = [LIBRARY_PAGE, join(PACKAGE_ROOT, 'docs/proxy.md')];

beforeAll(async () => {
  const checkout = join(work, 'checkout');
  copyCheckout(checkout);
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  const { stdout } = await run(NPM, ['pack', '--json', '--pack-destination', work], { cwd: checkout, maxBuffer: 64 * 1024 * 1024 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(work, packed.filename);
  files = packed.files.map((f) => f.path).sort();
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run(NPM, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'msw@2', 'vitest@4'], { cwd: project });
});

afterAll(() => {
  server?.child.kill();
  rmSync(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds only what a user runs and imports', () => {
    expect(files).toContain('dist/cli.js');
    expect(files).toContain('dist/index.d.ts');
    expect(files).toContain('spec/openapi.yaml');
    expect(files).toContain('LICENSE');
    const unwanted = files.filter((f) => /\.test\.|\.map$|^src\/|^bench|^dist\/bench|^dist\/src|faults|test-support|^test\//.test(f));
    expect(unwanted).toEqual([]);
  });

  it('declares what its code and declarations import, and bundles the rest', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/petstore-mock-kit/package.json'), 'utf8'));
    // prepare bundles where the sources are (a clone, a git or folder dependency); npm never runs it for a packed package.
    expect(manifest.scripts?.prepare).toBe('node scripts/bundle.mjs --prepare');
    expect(manifest.scripts?.postinstall).toBeUndefined();
    const read = (pattern: RegExp) => files.filter((f) => pattern.test(f)).map((f) => readFileSync(join(project, 'node_modules/petstore-mock-kit', f), 'utf8')).join('\n');
    // The modules; dist/docs holds the docs page's browser scripts (Swagger UI's bundle), loaded by a page, never imported.
    const code = read(/^dist\/(?!docs\/).*\.js$/);
    // The declarations' import statements, which a user's compiler resolves (not the examples in their comments).
    const declarations = read(/\.d\.ts$/);
    const specifiers = [
      ...[...code.matchAll(/\bfrom\s*"([^"]+)"|\bimport\s*\(\s*"([^"]+)"\s*\)|^import\s*"([^"]+)"/gm)].map((m) => m[1] ?? m[2] ?? m[3]),
      ...[...declarations.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]),
    ];
    // A specifier has no whitespace: `from "from" in "text"` inside a bundled library's comment (fast-check's) is prose.
    const packages = specifiers.filter((s) => !/\s/.test(s) && !s.startsWith('.') && !s.startsWith('node:')).map((s) => /^(@[^/]+\/[^/]+|[^/]+)/.exec(s)![1]);
    const imported = new Set(packages);
    expect([...imported].sort()).toEqual(Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).sort());
  });

  it('matches the figures of docs/library.md (files, packed size)', () => {
    const page = readFileSync(LIBRARY_PAGE, 'utf8');
    const stated = /The package is (\d+) files, (\d+) kB packed/.exec(page);
    expect(stated, 'docs/library.md: "The package is N files, S kB packed"').not.toBeNull();
    const size = statSync(tarball).size / 1000;
    expect(Number(stated![1])).toBe(files.length);
    expect(Math.abs(Number(stated![2]) - size) / size).toBeLessThan(0.1);
  });

  it('runs its bin: --help, serve, and contract against what it serves', async () => {
    const help = await run(NPM, ['exec', '--', 'petstore-mock-kit', '--help'], { cwd: project });
    expect(help.stdout).toMatch(/^Usage: petstore-mock-kit serve/);
    // The installed bin itself (npx runs the same file).
    server = await startProcess(join(project, 'node_modules/.bin/petstore-mock-kit'), ['serve', '--port', '0'], /listening on http:\/\/\S+/, { PORT: '' });
    const url = /listening on (http:\/\/\S+)/.exec(server.output())![1];
    expect((await fetch(`${url}/pets?limit=1`, { headers: { Authorization: 'Bearer petstore-demo-key' } })).status).toBe(200);
    // The docs page's assets come from the installed package.
    for (const asset of ['', '/swagger-ui-bundle.js', '/swagger-ui.css', '/docs-ui.js', '/docs-ui.css']) expect((await fetch(`${url}/__docs${asset}`)).status, asset).toBe(200);
    const contract = await run(NPM, ['exec', '--', 'petstore-mock-kit', 'contract', '--base-url', url, '--token', 'petstore-demo-key', '--coverage', join(work, 'coverage.json')], { cwd: project, maxBuffer: 16 * 1024 * 1024 });
    expect(contract.stdout).toMatch(/conforms/i);
  });

  it('imports as ESM: createMock with the bundled Petstore, in-process', async () => {
    const script = `
      import { createMock, DEMO_API_KEY } from 'petstore-mock-kit';
      const mock = await createMock();
      const res = await mock.fetch('/categories', { headers: { Authorization: 'Bearer ' + DEMO_API_KEY } });
      console.log(res.status, (await res.json()).length, mock.plugins.join());`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(stdout.trim()).toMatch(/^200 \d+ petstore$/);
  });

  it('type-checks programs using its types under tsc --strict, and refuses each misuse with its error', async () => {
    for (const file of TYPE_PROGRAMS) cpSync(join(PACKAGE_ROOT, 'test/types', file), join(project, file));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: TYPE_PROGRAMS }));
    const output = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    const reported = [...output.matchAll(/^(\S+\.ts)\((\d+),\d+\): error (TS\d+)/gm)].map(([, file, line, code]) => `${file}:${line} ${code}`);
    const expected = TYPE_PROGRAMS.flatMap((file) =>
      readFileSync(join(project, file), 'utf8')
        .split('\n')
        .flatMap((text, i) => [...text.matchAll(/\/\/ error (TS\d+)$/g)].map(([, code]) => `${file}:${i + 1} ${code}`)),
    );
    expect(expected.length).toBeGreaterThanOrEqual(9);
    expect(reported, output).toEqual(expected);
  });

  it('publishes declarations without `any`, naming every type they declare, and declaring the values each entry exports', async () => {
    const entries = { 'dist/index.d.ts': 'petstore-mock-kit', 'dist/browser.d.ts': 'petstore-mock-kit/browser', 'dist/msw.d.ts': 'petstore-mock-kit/msw', 'dist/vitest.d.ts': 'petstore-mock-kit/vitest' };
    expect(files.filter((f) => f.endsWith('.d.ts'))).toEqual(Object.keys(entries).sort());
    const script = `for (const entry of ${JSON.stringify(Object.values(entries))}) console.log(Object.keys(await import(entry)).sort().join());`;
    const exported = (await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project })).stdout.trim().split('\n');
    for (const [i, file] of Object.keys(entries).entries()) {
      const text = readFileSync(join(project, 'node_modules/petstore-mock-kit', file), 'utf8');
      expect(anyTypes(text), file).toEqual([]);
      expect(unexportedTypes(text), file).toEqual([]);
      expect(declaredValues(text).join(), file).toBe(exported[i]);
    }
  });

  it('type-checks every TypeScript example of docs/library.md and docs/proxy.md, and runs those that print', async () => {
    const examples = TYPESCRIPT_PAGES.flatMap((page) => readmeBlocks(readFileSync(page, 'utf8')).filter((b) => b.lang === 'ts').map((block) => ({ ...block, page: relative(PACKAGE_ROOT, page) })));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    // The MSW example is a vitest setup file: vitest is installed beside the package, as petstore-mock-kit/vitest's users install it.
    const names = examples.map((block, i) => {
      writeFileSync(join(project, `readme-${i}.ts`), `${block.text}\nexport {};\n`);
      return `readme-${i}.ts`;
    });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: false, outDir: 'out' }, files: names }));
    await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project });
    for (const [i, block] of examples.entries()) {
      const expected = [...block.text.matchAll(/console\.log\(.*\); \/\/ (.+)$/gm)].map((m) => m[1]);
      if (expected.length === 0) continue;
      const { stdout } = await run(process.execPath, [join(project, 'out', `readme-${i}.js`)], { cwd: project });
      const printed = stdout.trim().split('\n');
      for (const line of expected) expect(printed, `${block.page} line ${block.line}`).toContain(line);
    }
  });
});
