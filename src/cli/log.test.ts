/**
 * The CLI's log, without starting anything: the formatters (text and JSON, by level), the line
 * buffer (one write per turn), and the logger that joins them.
 */
import { describe, expect, it } from 'vitest';
import type { RequestEntry } from '../mock/admin/request-log.js';
import { describeScenario } from '../mock/admin/request-log.js';
import { createLogger, explainScenario, formatBanner, formatMessage, formatRequest, LineBuffer, shows, type Banner, type LogSettings } from './log.js';

const TIME = Date.parse('2026-05-01T10:00:00.000Z');
const entry = (changes: Partial<RequestEntry> = {}): RequestEntry => ({ time: TIME, method: 'GET', path: '/pets', status: 200, ms: 1.23, scenario: 'none', ...changes });
const text = (level: LogSettings['level']): LogSettings => ({ level, format: 'text' });
const json = (level: LogSettings['level']): LogSettings => ({ level, format: 'json' });
const PROBLEMS = [
  { path: 'body.categoryId', rule: 'required', message: 'is required' },
  { path: 'body.name', rule: 'type', message: 'must be string' },
];

describe('levels', () => {
  it('each level shows what the one before shows', () => {
    expect((['silent', 'error', 'info', 'debug'] as const).map((level) => (['error', 'warn', 'info', 'debug'] as const).filter((s) => shows(level, s)))).toEqual([
      [],
      ['error', 'warn'],
      ['error', 'warn', 'info'],
      ['error', 'warn', 'info', 'debug'],
    ]);
  });
});

describe('formatRequest as text', () => {
  it('is one line: time, method, path, status, ms', () => {
    expect(formatRequest(entry(), text('info'))).toBe('2026-05-01T10:00:00.000Z GET /pets 200 1.2ms\n');
    expect(formatRequest(entry({ ms: 12 }), text('info'))).toBe('2026-05-01T10:00:00.000Z GET /pets 200 12.0ms\n');
  });

  it('adds the scenario and the session when there are some', () => {
    const line = formatRequest(entry({ path: '/pets/1', status: 404, ms: 301.4, session: 'alice', scenario: { asked: { code: 404, delay: [300, 300] }, outcome: 'forced', delay: { ms: 300, from: 'prefer' } } }), text('info'));
    expect(line).toBe('2026-05-01T10:00:00.000Z GET /pets/1 404 301.4ms  scenario: code=404 delay=300: forced, held 300 ms  session: alice\n');
  });

  it('shows only 5xx answers at error, nothing at silent', () => {
    expect(formatRequest(entry(), text('error'))).toBeUndefined();
    expect(formatRequest(entry({ status: 404 }), text('error'))).toBeUndefined();
    expect(formatRequest(entry({ status: 503 }), text('error'))).toBe('2026-05-01T10:00:00.000Z GET /pets 503 1.2ms\n');
    expect(formatRequest(entry({ status: 500 }), text('silent'))).toBeUndefined();
  });

  it('adds, at debug, the validation problems and what the scenario did, one per line', () => {
    const refused = entry({ method: 'POST', status: 400, problems: PROBLEMS });
    expect(formatRequest(refused, text('info'))).toBe('2026-05-01T10:00:00.000Z POST /pets 400 1.2ms\n');
    expect(formatRequest(refused, text('debug'))).toBe(
      ['2026-05-01T10:00:00.000Z POST /pets 400 1.2ms', '    problem: body.categoryId: is required (required)', '    problem: body.name: must be string (type)', ''].join('\n'),
    );
    const faulted = entry({ status: 500, scenario: { fault: 500, delay: { ms: 120, from: 'server' } } });
    expect(formatRequest(faulted, text('debug'))).toBe(
      [
        '2026-05-01T10:00:00.000Z GET /pets 500 1.2ms  scenario: injected fault 500, held 120 ms (--delay)',
        '    scenario: a fault injected by --error-rate answered 500; the answer was held 120 ms by --delay',
        '',
      ].join('\n'),
    );
  });
});

describe('how an answer was fitted to the declarations, and the self-check, at debug', () => {
  const fitted = ['404 NOT_FOUND answered 400: GET /things/{id} declares no 404, and 400 is its nearest declared status.'];
  const selfCheck = [{ path: 'body.name', rule: 'type', message: 'must be string' }];

  it('adds a line each as text, below the request line, at debug only', () => {
    const answered = entry({ path: '/things/7', status: 400, fitted, selfCheck });
    expect(formatRequest(answered, text('info'))).toBe('2026-05-01T10:00:00.000Z GET /things/7 400 1.2ms\n');
    expect(formatRequest(answered, text('debug'))).toBe(
      [
        '2026-05-01T10:00:00.000Z GET /things/7 400 1.2ms',
        `    declared: ${fitted[0]}`,
        '    self-check: body.name: must be string (type)',
        '',
      ].join('\n'),
    );
  });

  it('adds them as fields in JSON, at debug only', () => {
    expect(JSON.parse(formatRequest(entry({ status: 400, fitted, selfCheck }), json('debug'))!)).toMatchObject({ fitted, selfCheck });
    expect(JSON.parse(formatRequest(entry({ status: 400, fitted, selfCheck }), json('info'))!)).not.toHaveProperty('fitted');
  });
});

describe('formatRequest as JSON', () => {
  it('is one object per line, with what is present', () => {
    const line = formatRequest(entry({ session: 'bob' }), json('info'))!;
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trimEnd()).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ time: '2026-05-01T10:00:00.000Z', level: 'info', msg: 'request', method: 'GET', path: '/pets', status: 200, ms: 1.23, session: 'bob' });
  });

  it('is at level error for a 5xx, with the scenario in words; at debug the scenario as data and the problems', () => {
    const scenario = { asked: { code: 503 }, outcome: 'forced' as const };
    expect(JSON.parse(formatRequest(entry({ status: 503, scenario }), json('error'))!)).toMatchObject({ level: 'error', status: 503, scenario: 'code=503: forced' });
    expect(JSON.parse(formatRequest(entry({ status: 503, scenario }), json('error'))!)).not.toHaveProperty('scenarioDetail');
    const debug = JSON.parse(formatRequest(entry({ status: 400, scenario, problems: PROBLEMS }), json('debug'))!);
    expect(debug).toMatchObject({ scenario: 'code=503: forced', scenarioDetail: scenario, problems: PROBLEMS });
    expect(formatRequest(entry(), json('error'))).toBeUndefined();
  });
});

describe('scenarios in words', () => {
  it('name the directives as a client writes them, then what came of them', () => {
    expect(describeScenario({ asked: { example: 'empty' }, outcome: 'forced' })).toBe('example=empty: forced');
    expect(describeScenario({ asked: { dynamic: true, seed: 7, delay: [100, 800], extra: { stock: 'low' } } })).toBe('dynamic=true seed=7 delay=100-800 stock=low');
    expect(describeScenario({ asked: { code: 418 }, outcome: 'undeclared' })).toBe('code=418: refused: not declared');
    expect(describeScenario({ invalid: 'Prefer code=abc: the code must be an HTTP status.' })).toBe('refused: invalid Prefer');
    expect(explainScenario({ invalid: 'Prefer code=abc: the code must be an HTTP status.' })).toBe('refused: Prefer code=abc: the code must be an HTTP status.');
    expect(explainScenario({ asked: { code: 404 }, outcome: 'forced' })).toBe("asked code=404; answered with the scenario's response; the state was not changed");
  });
});

describe('messages and the banner', () => {
  const banner: Banner = {
    url: 'http://127.0.0.1:4010',
    operations: 19,
    lines: [
      { label: 'document', text: 'spec/openapi.yaml', fields: { document: 'spec/openapi.yaml', spec: 'http://127.0.0.1:4010/__spec' } },
      { label: 'records', text: 'pets 20 (seed 1)', fields: { records: { pets: 20 }, seed: 1 } },
    ],
  };

  it('prints the banner as text lines, or as one JSON object, from info', () => {
    expect(formatBanner(banner, TIME, text('info'))).toBe('Mock of 19 operations listening on http://127.0.0.1:4010\n  document  spec/openapi.yaml\n  records   pets 20 (seed 1)\n');
    expect(formatBanner({ ...banner, operations: 1, lines: [] }, TIME, text('info'))).toBe('Mock of 1 operation listening on http://127.0.0.1:4010\n');
    expect(JSON.parse(formatBanner(banner, TIME, json('debug'))!)).toEqual({
      time: '2026-05-01T10:00:00.000Z',
      level: 'info',
      msg: 'listening',
      url: 'http://127.0.0.1:4010',
      operations: 19,
      document: 'spec/openapi.yaml',
      spec: 'http://127.0.0.1:4010/__spec',
      records: { pets: 20 },
      seed: 1,
    });
    expect(formatBanner(banner, TIME, text('error'))).toBeUndefined();
  });

  it('prints a warning prefixed as text, with its level as JSON, from error', () => {
    expect(formatMessage('warn', 'the state file cannot be written', TIME, text('error'))).toBe('warning: the state file cannot be written\n');
    expect(JSON.parse(formatMessage('warn', 'x', TIME, json('info'))!)).toEqual({ time: '2026-05-01T10:00:00.000Z', level: 'warn', msg: 'x' });
    expect(formatMessage('warn', 'x', TIME, text('silent'))).toBeUndefined();
    expect(formatMessage('info', 'Reloaded', TIME, text('error'))).toBeUndefined();
    expect(JSON.parse(formatMessage('info', 'Reloaded', TIME, json('info'), { kept: ['pets'] })!)).toMatchObject({ msg: 'Reloaded', kept: ['pets'] });
  });
});

describe('LineBuffer', () => {
  it('writes the lines of a turn at once, in order, one write per run of a stream', () => {
    const writes: string[] = [];
    const scheduled: Array<() => void> = [];
    const buffer = new LineBuffer((flush) => scheduled.push(flush));
    const out = (chunk: string) => writes.push(`out:${chunk}`);
    const err = (chunk: string) => writes.push(`err:${chunk}`);
    buffer.write(out, 'a\n');
    buffer.write(out, 'b\n');
    buffer.write(err, 'w\n');
    buffer.write(out, 'c\n');
    expect(writes).toEqual([]);
    expect(scheduled).toHaveLength(1);
    scheduled[0]();
    expect(writes).toEqual(['out:a\nb\n', 'err:w\n', 'out:c\n']);
    buffer.write(out, 'd\n');
    expect(scheduled).toHaveLength(2);
    buffer.flush(); // on exit: at once
    expect(writes.at(-1)).toBe('out:d\n');
    scheduled[1]();
    expect(writes).toHaveLength(4);
  });

  it('flushes on setImmediate by default: after the current turn', async () => {
    const writes: string[] = [];
    const buffer = new LineBuffer();
    const sink = (chunk: string) => writes.push(chunk);
    for (let i = 0; i < 100; i++) buffer.write(sink, `${i}\n`);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(1);
    expect(writes[0].split('\n')).toHaveLength(101);
  });
});

describe('createLogger', () => {
  const setup = (settings: LogSettings) => {
    const out: string[] = [];
    const err: string[] = [];
    const log = createLogger(settings, { out: (c) => out.push(c), err: (c) => err.push(c), now: () => TIME, schedule: () => undefined });
    return { log, out, err };
  };

  it('has no request hook at silent (nothing to pay per request), and writes nothing but a failure', () => {
    const { log, out, err } = setup(text('silent'));
    expect(log.request).toBeUndefined();
    log.warn('w');
    log.info('i');
    log.banner({ url: 'http://x', operations: 1, lines: [] });
    log.fatal('Port 4010 is already in use; choose another with --port.');
    log.flush();
    expect(out).toEqual([]);
    expect(err).toEqual(['Port 4010 is already in use; choose another with --port.\n']);
  });

  it('sends requests and messages to out, warnings and errors to err, held until flushed', () => {
    const { log, out, err } = setup(text('info'));
    log.request!(entry());
    log.warn('careful');
    log.error('Kept the running document: bad YAML');
    log.info('Reloaded');
    expect([out, err]).toEqual([[], []]);
    log.flush();
    expect(out).toEqual(['2026-05-01T10:00:00.000Z GET /pets 200 1.2ms\n', 'Reloaded\n']);
    expect(err).toEqual(['warning: careful\nKept the running document: bad YAML\n']);
  });

  it('writes a failure as JSON in the JSON format, after what was held', () => {
    const { log, out, err } = setup(json('silent'));
    log.fatal('Cannot read the document.');
    expect(out).toEqual([]);
    expect(JSON.parse(err[0])).toEqual({ time: '2026-05-01T10:00:00.000Z', level: 'error', msg: 'Cannot read the document.' });
    const info = setup(json('info'));
    info.log.request!(entry());
    info.log.fatal('gone');
    expect(JSON.parse(info.out[0])).toMatchObject({ msg: 'request' });
  });
});
