/**
 * Numbers for generation: a plan worked out once per schema (its bounds in 3.0 or 3.1 form, its
 * format's range, multipleOf, the size its examples suggest), the rule a property's name gives
 * (a time, a year), and one draw.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';
import { chooseByName, type Producer } from './by-name.js';
import type { Evidence } from './evidence.js';
import { num, own } from './helpers.js';
import { INT_FORMATS } from './integer-formats.js';

export /**
 * A value is `constant` when the bounds leave no room; otherwise `range` times `step` (multipleOf when
 * `usable`), rounded to `decimals` (none for a whole step: its multiples are whole, toFixed(0) would only copy them).
 */
interface NumberPlan {
  constant?: number; range: { min: number; max: number }; step: number; decimals?: number; usable: boolean;
  /** Whether a value keeps to the schema: its type, bounds, format and multipleOf. */
  accepts: (value: number) => boolean;
  /** The rule for a property's numbers (a time, a year), per document and property name (null: none). */
  byName: WeakMap<Evidence, Map<string, Producer<number> | null>>;
  /** Those of the document last generated for (nearly always the only one): one lookup per value. */
  current?: { evidence: Evidence; rules: Map<string, Producer<number> | null> };
}

/** A bound and whether it is exclusive, from the 3.0 (boolean) or the 3.1 (number) form. */
function bound(inclusive: unknown, exclusive: unknown, tighter: (a: number, b: number) => number) {
  const [a, b] = [num(inclusive), num(exclusive)];
  if (b !== undefined && (a === undefined || tighter(a, b) === b)) return { at: b, open: true };
  return { at: a, open: a !== undefined && exclusive === true };
}

/** The plan of a schema's numbers (integers when `integer`). */
export function numberPlan(s: SchemaObject, integer: boolean): NumberPlan {
  const low = bound(s.minimum, s.exclusiveMinimum, Math.max);
  const high = bound(s.maximum, s.exclusiveMaximum, Math.min);
  const multipleOf = s.multipleOf !== undefined && num(s.multipleOf) !== undefined && s.multipleOf > 0 ? s.multipleOf : undefined;
  // Every value is k * step; plain numbers get two decimals, like prices and weights.
  const usable = multipleOf !== undefined && (!integer || Number.isInteger(multipleOf));
  const step = usable ? multipleOf! : integer ? 1 : 0.01;
  const [formatLow, formatHigh] = own(INT_FORMATS, s.format) ?? [-Infinity, Infinity];
  const safe = Number.MAX_SAFE_INTEGER;
  const lowK = low.at === undefined ? -safe : low.open ? Math.floor(low.at / step) + 1 : Math.ceil(low.at / step);
  const highK = high.at === undefined ? safe : high.open ? Math.ceil(high.at / step) - 1 : Math.floor(high.at / step);
  const minK = Math.min(Math.max(lowK, Math.ceil(formatLow / step), -safe), safe);
  const maxK = Math.max(Math.min(highK, Math.floor(formatHigh / step), safe), -safe);
  // Realistic values: at most ~1000 above the minimum, or from 0 when there is no minimum.
  const span = Math.min(1e6, Math.max(1, Math.floor(1000 / step)));
  const from = low.at !== undefined ? minK : maxK >= 0 ? Math.max(minK, 0) : Math.max(minK, maxK - span);
  const decimals = Math.min(String(step).split('.')[1]?.length ?? 0, 20);
  // Bounds closer than two decimals (or contradictory ones): the midpoint, or the lower bound.
  const squeezed = step === 0.01 && low.at! < high.at! ? (low.at! + high.at!) / 2 : minK * step;
  const constant = minK > maxK ? squeezed : undefined;
  const range = { min: from, max: Math.min(maxK, from + span) };
  const accepts = (value: number): boolean =>
    Number.isFinite(value) && (!integer || Number.isInteger(value)) && value >= formatLow && value <= formatHigh
    && (low.at === undefined || (low.open ? value > low.at : value >= low.at))
    && (high.at === undefined || (high.open ? value < high.at : value <= high.at))
    && (multipleOf === undefined || Number.isInteger(value / multipleOf));
  // With no maximum of its own, the schema's examples it accepts give the size: up to twice the largest (at least 10 above the start).
  const examples = [s.example, ...(Array.isArray(s.examples) ? s.examples : [])].filter((v): v is number => typeof v === 'number' && accepts(v));
  if (high.at === undefined && examples.length > 0 && Math.max(...examples) >= from * step) {
    range.max = Math.min(maxK, Math.max(from, Math.floor(Math.max(2 * Math.max(...examples), from * step + 10) / step)));
  }
  return { constant, range, step, decimals: Number.isInteger(step) ? undefined : decimals, usable, accepts, byName: new WeakMap() };
}

/** The rule a property's name and the document's examples give its numbers, found once per document and name; null for none. */
export function numberRule(evidence: Evidence, plan: NumberPlan, schema: SchemaObject, propertyName: string): Producer<number> | null {
  let current = plan.current;
  if (current?.evidence !== evidence) {
    let rules = plan.byName.get(evidence);
    if (!rules) plan.byName.set(evidence, (rules = new Map()));
    plan.current = current = { evidence, rules };
  }
  let producer = current.rules.get(propertyName);
  if (producer === undefined) {
    const examples = evidence.examplesOf(schema) ?? evidence.examples(propertyName);
    producer = chooseByName('number', propertyName, examples, () => evidence.dateShape()) ?? null;
    current.rules.set(propertyName, producer);
  }
  return producer;
}

/** One number of the plan, drawn from Faker. */
export function generateNumber(faker: Faker, plan: NumberPlan): number {
  if (plan.constant !== undefined) return plan.constant;
  const { range, step, decimals, usable } = plan;
  const draw = () => {
    const value = faker.number.int(range) * step;
    return decimals === undefined ? value : Number(value.toFixed(decimals));
  };
  let value = draw();
  // Validators test multipleOf by division, which floating point fails for some multiples (0.07 / 0.01).
  for (let tries = 0; usable && tries < 10 && (value / step) % 1 !== 0; tries++) value = draw();
  return value || 0;
}
