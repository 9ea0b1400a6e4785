/**
 * Checks of src/contract/checks/response-checks.ts on exchanges made by hand: each says whether it
 * applies, passes a conforming answer ([]) and names what it found wrong otherwise.
 */
import { describe, expect, it } from 'vitest';
import type { Case, Exchange } from '../case.js';
import type { CheckContext } from './check.js';
import { content_type_conformance, not_a_server_error, response_received } from './response-checks.js';

const exchange = (status: number, text = '', more: Partial<Exchange> = {}): Exchange => ({
  case: { method: 'GET', path: '/notes/1', label: 'note 1', intent: 'valid' } as Case,
  status,
  headers: new Headers({ 'Content-Type': 'text/html' }),
  text,
  ms: 3,
  ...more,
});

/** A context whose response problems are the given ones. */
const withProblems = (problems: ReturnType<CheckContext['problems']>): CheckContext => ({ problems: () => problems, checkResponse: () => problems, declaresHeader: () => false });

describe('not_a_server_error', () => {
  it('passes any answer below 500 and fails a 5xx, quoting the start of its body', () => {
    expect(not_a_server_error(withProblems([]), exchange(404, '{"message":"none"}'))).toEqual([]);
    expect(not_a_server_error(withProblems([]), exchange(503, 'upstream down'))).toEqual([{ received: '503 upstream down', documented: 'no 5xx for any request' }]);
  });
});

describe('response_received', () => {
  it('fails an exchange that got no whole answer, with the reason', () => {
    expect(response_received(withProblems([]), exchange(200))).toEqual([]);
    expect(response_received(withProblems([]), exchange(0, '', { error: 'timed out after 10000 ms' }))).toEqual([{ received: 'timed out after 10000 ms', documented: 'an HTTP answer to every request' }]);
  });
});

describe('content_type_conformance', () => {
  it('passes when the validator finds nothing wrong with the Content-Type, and names the declared media types otherwise', () => {
    const other = { path: 'body.id', message: 'must be integer' } as ReturnType<CheckContext['problems']>[number];
    expect(content_type_conformance(withProblems([other]), exchange(200))).toEqual([]);
    const wrong = { path: 'header.Content-Type', message: 'is not declared', declared: ['application/json'] } as ReturnType<CheckContext['problems']>[number];
    expect(content_type_conformance(withProblems([wrong]), exchange(200))).toEqual([
      expect.objectContaining({ status: 200, received: '200 with Content-Type text/html', documented: 'application/json' }),
    ]);
  });
});
