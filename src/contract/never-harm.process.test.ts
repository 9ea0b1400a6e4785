/**
 * The suite's first promise, on servers shaped like real ones nobody here wrote: it never changes
 * a record it did not create (a bulk write is never sent; the records of others read the same
 * after the run), it leaves nothing behind without a line saying so (a create answered 500 that
 * stored its row, ids given again after a delete, children before parents), and it reaches every
 * operation (a constraint the document does not state, a path with two keys).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDocument } from '../openapi/document/load-document.js';
import { startServer } from '../server/serve.js';
import { ROOT } from '../test-support/petstore.js';
import { tablesServer, type TablesOptions } from '../test-support/contract-servers/tables-server.js';
import { todosServer } from '../test-support/contract-servers/todos-server.js';
import { toJUnit } from './report/junit.js';
import { runContract } from './run-contract.js';
import { track } from '../test-support/processes.js';

const inProcess = (handler: (request: Request) => Promise<Response>) => (url: string, init: RequestInit) => handler(new Request(url, init));
const passedFor = (report: Awaited<ReturnType<typeof runContract>>, check: string) => report.outcomes.filter((o) => o.check === check && o.passed > 0).map((o) => o.operationId);
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

describe('a LoopBack 4 application: a bulk PATCH and DELETE on the collection, selected by `where`, answering a count', async () => {
  const document = await loadDocument(`${ROOT}test/documents/todos-api.yaml`);
  const SEED = ['Buy milk', 'Call Anna', 'File taxes'];

  it('never sends them, says why in the report and in JUnit, and leaves the todos that were there byte for byte', async () => {
    const server = todosServer(SEED);
    const before = JSON.stringify([...server.todos]);
    const report = await runContract({ document, baseUrl: 'http://todos.test', fetch: inProcess(server.fetch) });
    expect(server.calls.filter((call) => /^(PATCH|DELETE|PUT) \/todos(\?|$)/.test(call))).toEqual([]);
    expect(JSON.stringify([...server.todos])).toBe(before);
    expect(report.notSent.map((n) => `${n.operationId}: ${n.reason}`)).toEqual([
      'TodoController.deleteAll: its query parameter `where` selects the records it changes: it could change records the suite did not create',
      'TodoController.updateAll: its query parameter `where` selects the records it changes: it could change records the suite did not create',
    ]);
    expect(toJUnit(report)).toContain('<skipped message="never sent: its query parameter `where` selects the records it changes');
    expect(report.harm).toEqual([]);
    expect(report.leftBehind).toEqual([]);
    // Not vacuous: the todos the suite created went through their whole lifecycle.
    expect(passedFor(report, 'create_read_back')).toContain('TodoController.findTodoById');
    expect(passedFor(report, 'update_persists')).toEqual(expect.arrayContaining(['TodoController.replaceTodo', 'TodoController.updateTodo']));
    expect(passedFor(report, 'use_after_delete')).toContain('TodoController.deleteTodo');
  });

  it('a count in the answer alone is enough to keep a write unsent, whatever its parameters', async () => {
    const counted = structuredClone(document);
    for (const op of [counted.api.paths!['/todos'].patch!, counted.api.paths!['/todos'].delete!]) op.parameters = [];
    const server = todosServer(SEED);
    const report = await runContract({ document: counted, baseUrl: 'http://todos.test', fetch: inProcess(server.fetch) });
    expect(report.notSent.map((n) => n.reason)).toEqual([
      'its answer counts the records it changed: it may change many, not only the suite\'s',
      'its answer counts the records it changed: it may change many, not only the suite\'s',
    ]);
    expect(server.calls.filter((call) => /^(PATCH|DELETE) \/todos(\?|$)/.test(call))).toEqual([]);
  });

  it('sends them only when the caller vouches for them (--allow-write), on a server it may wipe', async () => {
    const server = todosServer(SEED);
    const report = await runContract({ document, baseUrl: 'http://todos.test', fetch: inProcess(server.fetch), allowWrites: ['TodoController.updateAll'], harmCheck: false });
    expect(report.notSent.map((n) => n.operationId)).toEqual(['TodoController.deleteAll']);
    expect(server.calls.some((call) => call.startsWith('PATCH /todos'))).toBe(true);
    expect(report.harmCheckOff).toBe('turned off (--no-harm-check): records others change during the run are not compared');
  });

  it('reports first, by collection and key, a record of others the run changed, and the CLI exits 3', async () => {
    // A server whose create also renames the first todo: nothing the suite sends names it, yet it changes.
    const server = todosServer(SEED);
    const sideEffect = async (request: Request) => {
      const response = await server.fetch(request);
      if (request.method === 'POST') server.todos.get(1)!.title = 'renamed by a create';
      return response;
    };
    const report = await runContract({ document, baseUrl: 'http://todos.test', fetch: inProcess(sideEffect) });
    expect(report.harm).toEqual([{ collection: 'todos', key: '1', change: 'changed', before: '{"id":1,"title":"Buy milk"}', after: '{"id":1,"title":"renamed by a create"}' }]);
    expect(report.conforms).toBe(false);

    const http = await startServer({ fetch: sideEffect }, { port: 0, host: '127.0.0.1' });
    cleanups.push(() => http.close());
    server.todos.get(1)!.title = 'Buy milk';
    const dir = mkdtempSync(join(tmpdir(), 'harm-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const cli = (extra: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = track(spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'contract', '--base-url', http.url, '--spec', `${ROOT}test/documents/todos-api.yaml`, ...extra], { cwd: dir }));
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.stderr.on('data', (c) => (out += c));
        child.on('close', (code) => resolve({ code, out }));
      });
    const harmed = await cli(['--junit', join(dir, 'j.xml'), '--coverage', join(dir, 'c.json')]);
    expect(harmed.code, harmed.out).toBe(3);
    expect(harmed.out.split('\n')[1]).toBe('HARM: 1 record(s) the suite did not create changed or gone after the run:');
    expect(harmed.out).toContain('  ✗ todos 1 changed: {"id":1,"title":"Buy milk"} -> {"id":1,"title":"renamed by a create"}');
    expect(readFileSync(join(dir, 'j.xml'), 'utf8')).toContain('<failure message="todos 1 changed: {&quot;id&quot;:1,&quot;title&quot;:&quot;Buy milk&quot;}');
    const off = await cli(['--no-harm-check']);
    expect(off.code, off.out).toBe(0);
    // Nothing written that was not asked for: the coverage JSON only with --coverage.
    expect(readdirSync(dir).sort()).toEqual(['c.json', 'j.xml']);
    expect(off.out).toContain('Records of others: not compared before and after (turned off (--no-harm-check)');
  });
});

describe('a generated REST API over SQLite (Platformatic DB\'s shape): constraints the document does not state', async () => {
  const document = await loadDocument(`${ROOT}test/documents/tables-api.yaml`);
  const SEED = {
    categories: [{ id: 1, name: 'Home', kind: 'indoor' }],
    tasks: [{ id: 1, title: 'Theirs', categoryId: 1 }],
    labels: [{ id: 1, name: 'urgent' }],
    taskLabels: [{ taskId: 1, labelId: 1, note: 'theirs' }],
  };
  const run = async (options: TablesOptions = {}) => {
    const server = tablesServer(SEED, options);
    const report = await runContract({ document, baseUrl: 'http://tables.test', fetch: inProcess(server.fetch) });
    return { server, report };
  };

  it('finds the server errors, reaches every operation past a CHECK constraint, and leaves the tables as they were', async () => {
    const { server, report } = await run();
    // The kind is drawn from the document's own example of the body (`kind: outdoor`), which the CHECK
    // accepts: no create is refused, and the categories' operations run (a lorem word was refused, 500).
    const refused = report.failures.filter((f) => f.operationId === 'createCategory' && f.check === 'not_a_server_error');
    expect(refused.filter((f) => !f.label.startsWith('a drawn valid request')).map((f) => f.label)).toEqual([]);
    // Input exploration draws other kinds the document allows, and finds the CHECK's 500: shrunk, confirmed, reported once.
    const explored = (report.explored ?? []).filter((f) => f.operationId === 'createCategory');
    expect(explored.map((f) => f.check)).toEqual(['not_a_server_error']);
    expect(refused).toHaveLength(1);
    expect(passedFor(report, 'create_read_back')).toEqual(expect.arrayContaining(['getCategoryById', 'getTaskById', 'getLabelById']));
    expect(passedFor(report, 'use_after_delete')).toEqual(expect.arrayContaining(['deleteCategories', 'deleteTasks', 'deleteLabels']));
    // The known server errors: a task in a category that does not exist, the delete of a category in use.
    expect(report.failures.filter((f) => f.check === 'edge_cases').map((f) => f.label)).toEqual(expect.arrayContaining([
      'a tasks record whose categoryId names no categories record',
      'delete a categories record that a tasks record still points at',
    ]));
    // Both keys of the join table's path are filled, always.
    expect(server.calls.filter((call) => call.includes('//'))).toEqual([]);
    expect(server.calls.some((call) => /^GET \/taskLabels\/task\/\d+\/label\/\d+$/.test(call))).toBe(true);
    // Ids given again after a delete, parents refused while a child points at them: nothing stays.
    expect(server.tables).toEqual(SEED);
    expect(report.leftBehind).toEqual([]);
    expect(report.harm).toEqual([]);
  });

  it('finds and deletes the row a create answered 500 for but stored, by the run\'s marker', async () => {
    const { server, report } = await run({ labels: 'with-key' });
    expect(report.failures.some((f) => f.operationId === 'createLabel' && f.check === 'not_a_server_error')).toBe(true);
    expect(server.tables.labels).toEqual(SEED.labels);
    expect(report.leftBehind).toEqual([]);
  });

  it('says which rows it may have left when a create stored them with no key to delete them by', async () => {
    const { server, report } = await run({ labels: 'null-key' });
    const stored = server.tables.labels.filter((l) => l.id === null);
    expect(stored.length).toBeGreaterThan(0);
    expect(report.leftBehind).toHaveLength(stored.length);
    for (const line of report.leftBehind) expect(line).toMatch(/^a labels record carrying the run's marker, no key shown \(no id to delete it by\): \{"id":null,"name":"contract-[0-9a-f]{8}-\d+"\}$/);
    expect(report.failures.some((f) => f.operationId === 'createLabel' && f.check === 'not_a_server_error' && f.received.startsWith('500 {"statusCode":500,"code":"SQLITE_CONSTRAINT"'))).toBe(true);
  });
});
