/**
 * Updates by the media type the request declares: `application/merge-patch+json` (RFC 7396: a
 * null removes a field, objects merge recursively), `application/json-patch+json` (RFC 6902:
 * add, remove, replace, move, copy, test), and any other body as a shallow merge of its fields.
 * Only fields the request may write are touched; a patch that names another is refused.
 */
import { ApiError, errors } from '../../core/api-error.js';
import type { StoredRecord } from '../../state/state-store.js';
import { setOwn } from '../../core/own-property.js';

export type PatchKind = 'merge-patch' | 'json-patch' | 'fields';

export function patchKindOf(mediaType: string | undefined): PatchKind {
  const essence = mediaType?.split(';')[0].trim().toLowerCase();
  if (essence === 'application/merge-patch+json') return 'merge-patch';
  if (essence === 'application/json-patch+json') return 'json-patch';
  return 'fields';
}

/** Applies a patch to a copy of the record: the new record, or a 4xx. */
export function applyPatch(kind: PatchKind, record: StoredRecord, body: unknown, writable: Set<string> | undefined): StoredRecord | ApiError {
  if (kind === 'json-patch') return jsonPatch(record, body, writable);
  const out = { ...record };
  if (!body || typeof body !== 'object' || Array.isArray(body)) return out;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (writable && !writable.has(name)) continue;
    if (kind === 'fields') setOwn(out, name, value);
    else if (value === null) delete out[name];
    else setOwn(out, name, mergePatch(out[name], value));
  }
  return out;
}

/** RFC 7396 §2, MergePatch(Target, Patch). */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = target && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [name, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete out[name];
    else setOwn(out, name, mergePatch(out[name], value));
  }
  return out;
}

type Operation = { op: string; path: string; from?: string; value?: unknown };

/** RFC 6902 on a deep copy: every operation applies, or none does. */
function jsonPatch(record: StoredRecord, body: unknown, writable: Set<string> | undefined): StoredRecord | ApiError {
  if (!Array.isArray(body)) return invalid('body', 'must be an array of operations (RFC 6902)');
  const doc = structuredClone(record) as Record<string, unknown>;
  for (const [i, raw] of body.entries()) {
    const at = `body[${i}]`;
    const op = raw as Operation;
    if (!op || typeof op !== 'object' || typeof op.path !== 'string' || !['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(op.op)) {
      return invalid(at, 'must be an operation: op (add, remove, replace, move, copy, test) and path');
    }
    const path = pointer(op.path);
    const from = op.from === undefined ? undefined : pointer(op.from);
    if (!path || ((op.op === 'move' || op.op === 'copy') && !from)) return invalid(at, 'has a path that is not a JSON pointer');
    // What an operation changes: its path, and for a move the place it moves from.
    const changed = op.op === 'test' ? [] : op.op === 'move' ? [path, from!] : [path];
    if (changed.some((target) => target.length === 0 || (writable && !writable.has(target[0])))) return invalid(at, `may not change ${op.path || '/'}`);
    const failed = applyOne(doc, op, path, from);
    if (failed) return new ApiError(409, 'PATCH_FAILED', `${at}: ${failed}.`);
  }
  return doc;
}

function applyOne(doc: Record<string, unknown>, op: Operation, path: string[], from: string[] | undefined): string | undefined {
  const get = (segments: string[]) => segments.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), doc);
  const parentOf = (segments: string[]) => get(segments.slice(0, -1)) as Record<string, unknown> | unknown[] | undefined;
  const remove = (segments: string[]) => {
    const parent = parentOf(segments);
    const key = segments.at(-1)!;
    if (!parent || typeof parent !== 'object' || get(segments) === undefined) return `${segments.join('/')} does not exist`;
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
    return undefined;
  };
  const add = (segments: string[], value: unknown) => {
    const parent = parentOf(segments);
    const key = segments.at(-1)!;
    if (!parent || typeof parent !== 'object') return `the parent of ${segments.join('/')} does not exist`;
    if (Array.isArray(parent)) {
      const index = key === '-' ? parent.length : Number(key);
      if (!Number.isInteger(index) || index < 0 || index > parent.length) return `${key} is not an index of the array`;
      parent.splice(index, 0, value);
    } else setOwn(parent, key, value);
    return undefined;
  };
  switch (op.op) {
    case 'add':
      return add(path, structuredClone(op.value));
    case 'remove':
      return remove(path);
    case 'replace':
      return remove(path) ?? add(path, structuredClone(op.value));
    case 'move': {
      const value = get(from!);
      return remove(from!) ?? add(path, value);
    }
    case 'copy': {
      const value = get(from!);
      return value === undefined ? `${op.from} does not exist` : add(path, structuredClone(value));
    }
    default:
      return JSON.stringify(get(path)) === JSON.stringify(op.value) ? undefined : `the test of ${op.path} failed`;
  }
}

/** `/a/b~1c` → ['a', 'b/c'] (RFC 6901); undefined when it is no pointer. */
function pointer(text: string): string[] | undefined {
  if (text === '') return [];
  if (!text.startsWith('/')) return undefined;
  return text.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function invalid(path: string, message: string): ApiError {
  return errors.validation([{ path, rule: 'patch', message }]);
}
