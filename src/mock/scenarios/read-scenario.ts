/**
 * Scenarios a request asks for, never sticky: `Prefer: code=404, example=empty, dynamic=true,
 * seed=7, delay=100-800` (Prism-compatible, plus `delay`), or the query fallbacks `__code`,
 * `__example`, `__dynamic`, `__seed`, `__delay` for clients that cannot set headers.
 *
 * Each directive is a registered part: an extension may add one (its value lands in
 * `scenario.extra`, where its rules read it) or replace a built-in.
 */
import { ApiError } from '../../core/api-error.js';
import { Registry } from '../../core/registry.js';
import type { QueryString } from '../../core/query-string.js';
import type { Scenario } from '../pipeline/exchange.js';


/** Reads one directive's value into the scenario; returns what is wrong with the value, if anything. */
export type PreferDirective = (value: string, scenario: Scenario) => string | undefined;

/** The longest delay a request may ask for. */
export const MAX_DELAY_MS = 30_000;

/** Parses `100` or `100-800` (milliseconds, at most 30 s). */
export function parseDelay(text: string): [number, number] | undefined {
  const match = /^(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = Number(match[2] ?? match[1]);
  return min <= max && max <= MAX_DELAY_MS ? [min, max] : undefined;
}

/** The built-in directives. */
export function preferDirectives(): Registry<PreferDirective> {
  return new Registry<PreferDirective>('Prefer directive')
    .register('code', (value, scenario) => {
      if (!/^[1-5]\d\d$/.test(value)) return 'the code must be an HTTP status from 100 to 599';
      scenario.code = Number(value);
    })
    .register('example', (value, scenario) => {
      if (!value) return 'name the example';
      scenario.example = value;
    })
    .register('dynamic', (value, scenario) => {
      if (value !== 'true' && value !== 'false') return 'dynamic is true or false';
      scenario.dynamic = value === 'true';
    })
    .register('seed', (value, scenario) => {
      if (!/^\d{1,9}$/.test(value)) return 'the seed must be a whole number';
      scenario.seed = Number(value);
    })
    .register('delay', (value, scenario) => {
      const delay = parseDelay(value);
      if (!delay) return `the delay is milliseconds (e.g. 200) or a range (e.g. 100-800), at most ${MAX_DELAY_MS}`;
      scenario.delay = delay;
    });
}

const BUILT_IN = preferDirectives();

/**
 * @returns the scenario (empty when none is asked for), or a 400 naming the bad preference.
 * Preferences no directive knows are ignored (RFC 7240 §2).
 */
export function readScenario(prefer: string | null, query: QueryString, directives: Registry<PreferDirective> = BUILT_IN): Scenario | ApiError {
  const asked = new Map<string, string>();
  if (prefer) {
    for (const part of prefer.split(/[,;]/)) {
      const [key, ...rest] = part.split('=');
      const name = key.trim().toLowerCase();
      if (directives.has(name)) asked.set(name, rest.join('=').trim().replace(/^"(.*)"$/, '$1'));
    }
  }
  if (query.raw.includes('__')) {
    for (const name of directives.names()) {
      const value = query.first(`__${name}`);
      if (value !== undefined) asked.set(name, value);
    }
  }
  if (asked.size === 0) return {};
  const scenario: Scenario = {};
  for (const [name, value] of asked) {
    const wrong = directives.get(name)!(value, scenario);
    if (wrong) return new ApiError(400, 'INVALID_SCENARIO', `Prefer ${name}=${value.slice(0, 40)}: ${wrong}.`);
  }
  return scenario;
}

/** What a request's scenario did: the directives it asked for, and what the mock did with them or on its own (`--delay`, `--error-rate`). */
export interface AppliedScenario {
  /** The directives asked for (`Prefer`, or the `__` query parameters), as read: `{ code: 404, delay: [300, 300] }`. */
  asked?: Scenario;
  /** Why the directives were refused (400 `INVALID_SCENARIO`). */
  invalid?: string;
  /** `forced`: the scenario's response answered, and nothing changed in the state; `undeclared`: it named a status or example the operation does not declare (400). */
  outcome?: 'forced' | 'undeclared';
  /** The status of a fault injected by `--error-rate`. */
  fault?: number;
  /** How long the answer was held, and by what: a `Prefer: delay` or `--delay`. */
  delay?: { ms: number; from: 'prefer' | 'server' };
}
