/**
 * Scenarios a request asks for, never sticky: `Prefer: code=404, example=empty, dynamic=true,
 * seed=7, delay=100-800` (Prism-compatible, plus `delay`), or the query fallbacks `__code`,
 * `__example`, `__dynamic`, `__seed`, `__delay` for clients that cannot set headers.
 */
import { ApiError } from '../respond/api-error.js';
import { safeDecode } from '../validation/safe-decode.js';

export interface Scenario {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: number;
  /** Milliseconds, a range: [min, max]. */
  delay?: [number, number];
}

/** The longest delay a request may ask for. */
export const MAX_DELAY_MS = 30_000;
const KEYS = ['code', 'example', 'dynamic', 'seed', 'delay'] as const;

/** Parses `100` or `100-800` (milliseconds, at most 30 s). */
export function parseDelay(text: string): [number, number] | undefined {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  return min <= max && max <= MAX_DELAY_MS ? [min, max] : undefined;
}

/** @returns the scenario (empty when none is asked for), or a 400 naming the bad preference. */
export function readScenario(prefer: string | null, query: string): Scenario | ApiError {
  const asked = new Map<string, string>();
  if (prefer) {
    for (const part of prefer.split(/[,;]/)) {
      const [key, ...rest] = part.split('=');
      const name = key.trim().toLowerCase();
      if ((KEYS as readonly string[]).includes(name)) asked.set(name, rest.join('=').trim().replace(/^"(.*)"$/, '$1'));
    }
  }
  if (query.includes('__')) {
    for (const pair of query.split('&')) {
      const [key, value = ''] = pair.split('=');
      if (!key.startsWith('__')) continue;
      const name = key.slice(2);
      if ((KEYS as readonly string[]).includes(name)) asked.set(name, safeDecode(value));
    }
  }
  if (asked.size === 0) return {};
  const scenario: Scenario = {};
  for (const [name, value] of asked) {
    const bad = (rule: string) => new ApiError(400, 'INVALID_SCENARIO', `Prefer ${name}=${value.slice(0, 40)}: ${rule}.`);
    if (name === 'code') {
      if (!/^[1-5]\d\d$/.test(value)) return bad('the code must be an HTTP status from 100 to 599');
      scenario.code = Number(value);
    } else if (name === 'example') {
      if (!value) return bad('name the example');
      scenario.example = value;
    } else if (name === 'dynamic') {
      if (value !== 'true' && value !== 'false') return bad('dynamic is true or false');
      scenario.dynamic = value === 'true';
    } else if (name === 'seed') {
      if (!/^\d{1,9}$/.test(value)) return bad('the seed must be a whole number');
      scenario.seed = Number(value);
    } else {
      const delay = parseDelay(value);
      if (!delay) return bad(`the delay is milliseconds (e.g. 200) or a range (e.g. 100-800), at most ${MAX_DELAY_MS}`);
      scenario.delay = delay;
    }
  }
  return scenario;
}
