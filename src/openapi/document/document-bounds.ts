/**
 * How far a document may expand before anything walks it. Parsed, a document is small; written out
 * (`/__spec.json`, `/__spec.yaml`) its shared objects (YAML aliases) are written at every place they
 * are used, and walked by the mock (generating an answer, compiling a validator) its `$ref`s are
 * followed at every place. A few kilobytes that refer to each other ten times over, ten levels
 * deep, expand to billions of values: such a document is refused at load, in one sentence naming
 * the bound and where it was passed. The count as served stops at its bound; what a `$ref` names
 * is measured once, so both measures are linear in the document. A circular `$ref` counts once,
 * as the loader keeps it.
 */
import { resolveRef } from './resolve-ref.js';
import type { JsonObject } from './objects.js';

export const DOCUMENT_BOUNDS = {
  /**
   * Values in the document as served, each shared object counted where it is used. GitHub's REST
   * API description (13 MB, the largest known) holds 258,000; the bench's 2,000 operations 116,000.
   */
  served: 2_000_000,
  /**
   * Values in one path, webhook or component (`#/components/schemas/Pet`) with its `$ref`s replaced
   * by what they name: what the mock walks for an operation. The largest known: 60,412 (the bench's
   * chain of 500 named schemas), GitHub's 19,055 (its issue timeline).
   */
  expanded: 1_000_000,
} as const;

/** The members of the root that hold units of their own (`#/paths/~1pets` is one unit, not `#/paths`). */
const CONTAINERS = new Set(['paths', 'webhooks', 'definitions', 'parameters', 'responses', 'securityDefinitions', 'x-webhooks']);

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The end of a sentence saying which bound the document passes, and where; undefined when it
 * keeps to them.
 *
 * @example
 * boundPassed(fanOut) // '#/paths/~1things, with its $refs replaced by what they name, would hold 1,111,111,131 values, past the bound of 1,000,000 on what the mock walks at once'
 */
export function boundPassed(document: JsonObject): string | undefined {
  const served = servedPassedIn(document);
  if (served !== undefined) {
    return `as served (each YAML alias, or object given twice, written out in full where it is used) it would hold more than ${count(DOCUMENT_BOUNDS.served)} values, the bound on a document, passed in ${pointer([served])}`;
  }
  const expanded = new ExpandedSize(document);
  for (const [path, value] of units(document)) {
    const size = expanded.of(value);
    if (size > DOCUMENT_BOUNDS.expanded) {
      return `${pointer(path)}, with its $refs replaced by what they name, would hold ${count(size)} values, past the bound of ${count(DOCUMENT_BOUNDS.expanded)} on what the mock walks at once`;
    }
  }
  return undefined;
}

/**
 * The member of the root in which the document, counted value by value as it would be written
 * out (a shared object at each place), passes the bound; undefined when it does not. The count
 * stops there, so the walk is bounded whatever the document shares (one that holds itself passes).
 */
function servedPassedIn(document: JsonObject): string | undefined {
  let values = 1;
  for (const [key, member] of Object.entries(document)) {
    // An explicit stack: documents nest as deep as they like.
    const stack: unknown[] = [member];
    while (stack.length > 0) {
      const value = stack.pop();
      if (++values > DOCUMENT_BOUNDS.served) return key;
      if (value !== null && typeof value === 'object') for (const inner of Object.values(value)) stack.push(inner);
    }
  }
  return undefined;
}

/** Each path, webhook and component of the document, and every other member of its root. */
function* units(document: JsonObject): Generator<[string[], unknown]> {
  for (const [key, value] of Object.entries(document)) {
    const members = key === 'components' ? 2 : CONTAINERS.has(key) ? 1 : 0;
    if (members === 0 || value === null || typeof value !== 'object') {
      yield [[key], value];
    } else if (members === 1) {
      for (const [name, member] of Object.entries(value)) yield [[key, name], member];
    } else {
      for (const [kind, section] of Object.entries(value)) {
        if (section === null || typeof section !== 'object') yield [[key, kind], section];
        else for (const [name, member] of Object.entries(section)) yield [[key, kind, name], member];
      }
    }
  }
}

/** `#/paths/~1pets`: a JSON Pointer in a URI fragment, as the meta-schema's problems are named. */
function pointer(path: string[]): string {
  return `#/${path.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * An object being measured: its values left to measure and the sum so far; whether it is what a
 * `$ref` names (remembered once measured), and whether it is a `$ref` (its first value is then
 * what it names, measured as such).
 */
interface Frame {
  node: object;
  values: unknown[];
  next: number;
  total: number;
  named: boolean;
  reference: boolean;
}

/**
 * The number of values under a node once each local `$ref` is replaced by what it names (with its
 * other keys), with an explicit stack (documents nest as deep as they like). What a `$ref` names
 * is measured once and remembered, so the measure is linear in the document however often it is
 * named; a `$ref` to what is being measured (a cycle, kept as a `$ref` by the loader) is one value.
 * Objects shared otherwise (YAML aliases) are measured at each place: servedPassedIn bounds those.
 */
class ExpandedSize {
  private readonly memo = new Map<object, number>();
  private readonly open = new Set<object>();
  /** What each `$ref` string names: a document names the same few thousand schemas many times. */
  private readonly targets = new Map<string, unknown>();

  constructor(private readonly document: JsonObject) {}

  of(root: unknown): number {
    const stack: Frame[] = [];
    let size = this.enter(root, false, stack);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next < frame.values.length) {
        const named = frame.reference && frame.next === 0;
        const known = this.enter(frame.values[frame.next++], named, stack);
        if (known !== undefined) frame.total += known;
        continue;
      }
      stack.pop();
      if (frame.named) {
        this.open.delete(frame.node);
        this.memo.set(frame.node, frame.total);
      }
      size = frame.total;
      if (stack.length > 0) stack[stack.length - 1].total += frame.total;
    }
    return size ?? 0;
  }

  /** The size of a value already known (a scalar, a measured target, a cycle), or undefined once its frame is pushed. */
  private enter(value: unknown, named: boolean, stack: Frame[]): number | undefined {
    if (value === null || typeof value !== 'object') return 1;
    if (named) {
      const known = this.memo.get(value);
      if (known !== undefined) return known;
      if (this.open.has(value)) return 1;
      this.open.add(value);
    }
    const ref = (value as { $ref?: unknown }).$ref;
    const target = typeof ref === 'string' ? this.target(ref) : undefined;
    if (target === undefined) {
      stack.push({ node: value, values: Object.values(value), next: 0, total: 1, named, reference: false });
    } else {
      // Replaced by what it names, with its other keys: what dereferencing makes of it.
      const values: unknown[] = [target];
      for (const key in value) if (key !== '$ref' && Object.hasOwn(value, key)) values.push((value as Record<string, unknown>)[key]);
      stack.push({ node: value, values, next: 0, total: 0, named, reference: true });
    }
    return undefined;
  }

  /** What a local `$ref` names, or undefined (another file's, one naming nothing, one badly escaped: the loader says which). */
  private target(ref: string): unknown {
    if (this.targets.has(ref)) return this.targets.get(ref);
    let target: unknown;
    try {
      target = ref === '#' ? this.document : resolveRef(this.document, ref);
    } catch {
      target = undefined;
    }
    this.targets.set(ref, target);
    return target;
  }
}
