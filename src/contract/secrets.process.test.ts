/**
 * Secrets are never printed: against a real server that echoes the credentials and the query it
 * is sent (in its bodies, its headers, its error messages and its Location), neither the token nor
 * an `-H` value appears in any form the suite sends them in, in the report runContract returns,
 * the exchanges onExchange sees, the CLI's output, its JUnit and coverage files, or a dry run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../core/bytes.js';
import { loadDocument } from '../openapi/document/load-document.js';
import { ROOT } from '../test-support/petstore.js';
import { formatReport } from './report/console.js';
import { toJUnit } from './report/junit.js';
import { runContract } from './run-contract.js';
import { track } from '../test-support/processes.js';

const SPEC = `${ROOT}test/documents/echo-api.yaml`;
const TOKEN = 's3cret/t0k+en=42';
const HEADER = 'tenant-secret-42';
/** Each form the suite sends a secret in: as given, URL-encoded in the query, inside a Basic credential. */
const FORMS = [TOKEN, encodeURIComponent(TOKEN), toBase64(`${TOKEN}:`), HEADER];
const leaked = (text: string) => FORMS.filter((form) => text.includes(form));

/** What the server was sent, to prove the secrets reached it (and so could be echoed). */
const seen: string[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const notes = new Map<number, string>();
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://echo.test');
    const echo = `${req.headers.authorization ?? ''} ${url.search} ${String(req.headers['x-tenant-key'] ?? '')}`;
    seen.push(echo);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'X-Echo': echo, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers }).end(body === undefined ? undefined : JSON.stringify(body));
    const authorized = [`Bearer ${TOKEN}`, `Basic ${toBase64(`${TOKEN}:`)}`].includes(req.headers.authorization ?? '') || url.searchParams.get('key') === TOKEN;
    if (!authorized) return send(401, { message: `unknown credentials: ${echo}` }, { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${encodeURIComponent(echo)}"` });
    const id = Number(/^\/notes\/(\d+)$/.exec(url.pathname)?.[1]);
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (url.pathname === '/notes' && req.method === 'GET') return send(200, [...notes].map(([key, text]) => ({ id: key, text: `${text} ${echo}` })));
      if (url.pathname === '/notes' && req.method === 'POST') {
        let text: unknown;
        try {
          text = (JSON.parse(body) as { text?: unknown }).text;
        } catch {
          return send(400, { message: `not JSON, from ${echo}` });
        }
        if (typeof text !== 'string' || req.headers['content-type'] !== 'application/json') return send(400, { message: `no text, from ${echo}` });
        const key = notes.size + 1;
        notes.set(key, text);
        return send(201, { id: key, text: notes.get(key) }, { Location: `/notes/${key}?echo=${encodeURIComponent(echo)}` });
      }
      if (!notes.has(id)) return send(404, { message: `no note ${id} for ${echo}` });
      if (req.method === 'DELETE') return (notes.delete(id), send(204));
      return send(200, { id, text: `${notes.get(id)} ${echo}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The CLI as a CI job runs it, output and files collected. */
function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = track(spawn(process.execPath, [join(ROOT, 'dist/cli.js'), 'contract', '--spec', SPEC, '--token', TOKEN, '-H', `X-Tenant-Key: ${HEADER}`, ...args], { cwd: mkdtempSync(join(tmpdir(), 'secrets-')) }));
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('secrets, against a server that echoes them', () => {
  it('appear nowhere in the report runContract returns, nor in the exchanges onExchange sees, though the server echoed each form', async () => {
    const document = await loadDocument(SPEC);
    const exchanges: string[] = [];
    seen.length = 0;
    const report = await runContract({
      document,
      baseUrl,
      token: TOKEN,
      headers: { 'X-Tenant-Key': HEADER },
      onExchange: (ex) => exchanges.push(JSON.stringify({ path: ex.case.path, label: ex.case.label, headers: ex.case.headers, text: ex.text, echo: ex.headers.get('x-echo'), error: ex.error })),
    });
    const sent = seen.join('\n');
    expect([`Bearer ${TOKEN}`, `Basic ${toBase64(`${TOKEN}:`)}`, `key=${encodeURIComponent(TOKEN)}`, HEADER].filter((form) => !sent.includes(form))).toEqual([]);
    expect(report.failures.length).toBeGreaterThan(0);
    const text = JSON.stringify(report);
    expect(leaked(text)).toEqual([]);
    expect(leaked(formatReport(report))).toEqual([]);
    expect(leaked(toJUnit(report))).toEqual([]);
    expect(leaked(exchanges.join('\n'))).toEqual([]);
    // Masked, not missing: what the server echoed is in the report with each secret as ***.
    expect(text).toContain('Bearer *** ');
    expect(text).toContain('Basic *** ');
    expect(text).toContain('?key=***');
    expect(text).toContain(' ***');
    expect(report.failures.some((f) => /^follow the Location \/notes\/\d+\?echo=Bearer%20\*\*\*/.test(f.label))).toBe(true);
    // Cut short in a finding (`body.text = "... tenant-sec...`), a secret is masked too.
    expect(text).not.toMatch(/tenant-s|s3cret\/t/);
  });

  it('appear nowhere in what the CLI writes: stdout, stderr, the JUnit file, the coverage file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-files-'));
    const result = await cli(['--base-url', baseUrl, '--junit', join(dir, 'junit.xml'), '--coverage', join(dir, 'coverage.json')]);
    expect(result.code, result.out).toBe(1);
    expect(result.out).toMatch(/FAIL: \d+ failure/);
    expect(leaked(result.out)).toEqual([]);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('***');
    expect(leaked(readFileSync(join(dir, 'junit.xml'), 'utf8'))).toEqual([]);
    expect(leaked(readFileSync(join(dir, 'coverage.json'), 'utf8'))).toEqual([]);
  });

  it('appear nowhere in the lines of a dry run, which send the API key in the query', async () => {
    const result = await cli(['--base-url', baseUrl, '--dry-run']);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/^GET {4}\/notes\?key=\*\*\* {2}# listNotes: /m);
    expect(leaked(result.out)).toEqual([]);
  });
});
