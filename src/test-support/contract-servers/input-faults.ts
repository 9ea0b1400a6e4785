/**
 * Implementations that break a promise of the Petstore document only for some valid inputs: thin
 * wrappers of the mock that answer 500 (with the document's error shape, as a careless handler
 * behind a framework's error middleware would) to a valid request the mock accepts. The fixed
 * script of the suite passes every one; input exploration must not.
 */
import type { Mock } from '../../mock/app.js';
import type { CheckId } from '../../contract/case.js';
import type { Handler } from './faults.js';

export interface InputFault {
  name: string;
  breaks: string;
  caughtBy: CheckId;
  /** The operation a shrunk failure names; any write, when undefined. */
  operationId?: string;
  /** What a shrunk failing input holds, as its curl line shows it. */
  shrunkTo: RegExp;
  wrap: (mock: Mock) => Handler;
}

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const WRITES = ['POST', 'PUT', 'PATCH'];

const crash = () =>
  new Response(JSON.stringify({ code: 'INTERNAL', message: 'Internal server error.' }), { status: 500, headers: { 'Content-Type': 'application/json' } });

/** A wrapper that reads a write's JSON body (a copy: the mock still reads the original) and answers 500 when `breaks` holds for it. */
function failsWhen(breaks: (path: string, body: Json, text: string) => boolean): (mock: Mock) => Handler {
  return (mock) => async (request) => {
    if (WRITES.includes(request.method)) {
      const text = await request.clone().text();
      let body: Json;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (breaks(new URL(request.url).pathname, body, text)) return crash();
    }
    return mock.app.fetch(request);
  };
}

export const INPUT_FAULTS: InputFault[] = [
  {
    name: 'non-ascii-write',
    breaks: 'a write holding a character outside ASCII answers 500',
    caughtBy: 'not_a_server_error',
    shrunkTo: /[^\x00-\x7f]/,
    // The body as sent (JSON.stringify keeps non-ASCII characters as they are).
    wrap: failsWhen((_path, _body, text) => /[^\x00-\x7f]/.test(text)),
  },
  {
    name: 'empty-category-description',
    breaks: 'a category whose description is the empty string (allowed: no minLength) answers 500',
    caughtBy: 'not_a_server_error',
    operationId: 'createCategory',
    shrunkTo: /"description":""/,
    wrap: failsWhen((path, body) => /^\/categories(\/[^/]+)?$/.test(path) && body?.description === ''),
  },
  {
    name: 'stock-near-maximum',
    breaks: 'a stock quantity from 99,900 to 100,000 (the document allows up to 100,000) answers 500',
    caughtBy: 'not_a_server_error',
    operationId: 'updateInventoryItem',
    shrunkTo: /"quantity":99900\b/,
    wrap: failsWhen((path, body) => /^\/store\/inventory\/[^/]+$/.test(path) && typeof body?.quantity === 'number' && body.quantity >= 99_900 && body.quantity <= 100_000),
  },
];
