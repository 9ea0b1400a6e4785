import { describe, expect, it } from 'vitest';
import { createLogger } from './log.js';
import { exchangeLine } from './proxy-command.js';

describe('the proxy\'s log line', () => {
  it('keeps what a violation quotes on its own line: a property name with CR/LF writes no line of its own', () => {
    const out: string[] = [];
    const log = createLogger({ level: 'info', format: 'text' }, { out: (chunk) => out.push(chunk), err: () => undefined, now: () => 0, schedule: () => undefined });
    exchangeLine(log)!({
      time: new Date(0),
      method: 'POST',
      path: '/things',
      status: 400,
      ms: 1,
      answeredBy: 'proxy',
      violations: [{ id: 1, time: '', check: 'request_conformance', kind: 'failure', operation: 'POST /things', request: 'POST /things', answeredBy: 'proxy', repro: '', received: 'body.a\r\n1970-01-01T00:00:00.000Z GET /forged 200 0.1ms upstream is not allowed', documented: 'a request\u2028that keeps to the document' }],
    });
    log.flush();
    const lines = out.join('').split('\n').filter(Boolean);
    expect(lines).toEqual([
      '1970-01-01T00:00:00.000Z POST /things 400 1.0ms proxy',
      '    violation request_conformance: received body.a\\r\\n1970-01-01T00:00:00.000Z GET /forged 200 0.1ms upstream is not allowed, documented a request\\u2028that keeps to the document',
    ]);
  });
});
