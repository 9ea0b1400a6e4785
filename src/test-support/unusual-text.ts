/**
 * The property behind "a write fails alone, on every store" (issue 37), for any store a mock of
 * test/documents/labels-api.yaml runs on: creates and updates whose keys, scopes and values are
 * arbitrary text (any code point, NUL, U+0001, lone surrogates, combining marks, astral characters,
 * what URLs and JSON treat specially), sent together with ordinary creates. After each run:
 * - no answer is a 5xx, and /__health stays ready, checked while the writes are under way too;
 * - every ordinary create is taken (201): nothing one request holds fails another;
 * - a write holding a lone surrogate is refused with a 400 naming it (rule `unicode`), any other
 *   hostile write is taken or refused for the document's own rules (never `unicode`);
 * - what was answered 2xx reads back exactly, through the writer and through every reader the
 *   store offers (another replica, a mock restarted from the state file).
 * Seeded and bounded; a failure prints the seed and path that replay it (fast-check).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Call } from './petstore.js';
import { holdsLoneSurrogate } from '../core/unicode.js';

export const LABELS_DOCUMENT = 'test/documents/labels-api.yaml';

export interface TextTarget {
  /** Where the writes go (a mock of the labels document). */
  call: Call;
  /** Mocks that must read back what the writer was answered, besides the writer: after each run. */
  readers?: () => Promise<Call[]>;
  /** Mocks that must read back the same once every run is done: a mock restarted from the state file, a replica started after. */
  finally?: () => Promise<Call[]>;
}

/** One code point of any kind: the whole range (no half of a pair), printable graphemes, what URLs and stores treat apart. */
const WHOLE = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.constantFrom('\u0000', '\u0001', '\\u0000', '/', '%', '%00', '.', '?', '#', '+', ' ', 'e\u0301', '\u200d', '\ufeff', '\uffff', '\u{10ffff}', '🐕') },
);
/** Half of a surrogate pair, alone unless the next unit happens to complete it. */
const HALF = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit));

/** Text of up to `maxLength` units; with `halves`, some hold lone surrogates. */
export function unusualText(maxLength: number, halves: boolean): fc.Arbitrary<string> {
  const unit = halves ? fc.oneof({ weight: 9, arbitrary: WHOLE }, { weight: 1, arbitrary: HALF }) : WHOLE;
  return fc.string({ unit, maxLength });
}

type Op =
  | { kind: 'label'; name: string; color?: string }
  | { kind: 'note'; label: number; text: string }
  | { kind: 'recolor'; label: number; color: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('label' as const), name: unusualText(12, true), color: fc.option(unusualText(12, true), { nil: undefined }) }, { requiredKeys: ['kind', 'name'] }),
  fc.record({ kind: fc.constant('note' as const), label: fc.nat(), text: unusualText(12, true) }),
  fc.record({ kind: fc.constant('recolor' as const), label: fc.nat(), color: unusualText(12, true) }),
);

interface Label {
  name: string;
  color?: string;
}

/** What every reader must give back: the labels the runs created (as last written), and the notes under each. */
interface Model {
  labels: Map<string, Label>;
  notes: Map<string, Array<{ id: number; text: string }>>;
}

const path = (name: string) => `/labels/${encodeURIComponent(name)}`;
/** A name a URL can reach: `.` and `..` are dot segments, resolved away before the mock sees them. */
const reachable = (name: string) => name !== '.' && name !== '..';

/** Runs the property against a target; `runs` runs, from `seed`. */
export async function checkUnusualText(target: TextTarget, { seed, runs }: { seed: number; runs: number }): Promise<void> {
  const { call } = target;
  const model: Model = { labels: new Map(), notes: new Map() };
  // What the labels list starts with (the seed), kept apart from what the runs create.
  const seeded = new Set(((await call('GET', '/labels')).body as Label[]).map((label) => label.name));
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 6 }), async (ops) => {
      run++;
      const known = [...model.labels.keys()].filter(reachable);
      const ordinary = Array.from({ length: 10 }, (_, i) => `ordinary ${run}.${i}`);
      const createOrdinary = (name: string) => call('POST', '/labels', { name });
      const recolored = new Set<string>();
      const sent = ops.map((o) => send(call, o, known, recolored));
      const answers = await Promise.all([
        ...ordinary.slice(0, 5).map(createOrdinary),
        ...sent.map((s) => s.answer),
        call('GET', '/__health'),
        ...ordinary.slice(5).map(createOrdinary),
      ]);
      const health = answers.splice(5 + sent.length, 1)[0];
      expect(health.status, 'GET /__health while the writes were under way').toBe(200);
      const ordinaryAnswers = [...answers.slice(0, 5), ...answers.slice(5 + sent.length)];
      for (const [i, answer] of ordinaryAnswers.entries()) {
        expect([answer.status, answer.body], `the ordinary create of ${ordinary[i]}, sent with ${JSON.stringify(ops)}`).toEqual([201, { name: ordinary[i] }]);
        model.labels.set(ordinary[i], { name: ordinary[i] });
      }
      for (const [i, s] of sent.entries()) s.judge(answers[5 + i], model);
      expect((await call('GET', '/__health')).status, 'GET /__health after the writes').toBe(200);
      await expectReadBack(call, (await target.readers?.()) ?? [], model, seeded, false);
    }),
    { seed, numRuns: runs },
  );
  await expectReadBack(call, [...((await target.readers?.()) ?? []), ...((await target.finally?.()) ?? [])], model, seeded, true);
}

/**
 * A hostile write: its answer, and how to judge it (recording what it changed in the model). A
 * label is recolored once per run at most (`recolored`): two at once may be applied in either order.
 */
function send(call: Call, o: Op, known: string[], recolored: Set<string>): { answer: ReturnType<Call>; judge: (answer: Awaited<ReturnType<Call>>, model: Model) => void } {
  const shown = JSON.stringify(o);
  const expectRefusedIfHalves = (answer: Awaited<ReturnType<Call>>, ...texts: Array<string | undefined>): boolean => {
    expect(answer.status, `${shown} -> ${answer.status} ${JSON.stringify(answer.body)}`).toBeLessThan(500);
    const rules = ((answer.body?.details ?? []) as Array<{ rule: string }>).map((problem) => problem.rule);
    if (texts.some((text) => text !== undefined && holdsLoneSurrogate(text))) {
      expect([answer.status, answer.body?.code, rules], shown).toEqual([400, 'VALIDATION_FAILED', expect.arrayContaining(['unicode'])]);
      return false;
    }
    expect(rules, shown).not.toContain('unicode');
    if (answer.status >= 400) expect(answer.body, shown).toMatchObject({ status: answer.status, code: expect.any(String), message: expect.any(String) });
    return answer.status < 300;
  };
  if (o.kind === 'label') {
    const body: Label = o.color === undefined ? { name: o.name } : { name: o.name, color: o.color };
    return {
      answer: call('POST', '/labels', body),
      judge: (answer, model) => {
        if (!expectRefusedIfHalves(answer, o.name, o.color)) return;
        expect([answer.status, answer.body], shown).toEqual([201, body]);
        expect(answer.headers.get('location'), shown).toBe(path(o.name));
        model.labels.set(o.name, body);
      },
    };
  }
  // On a label created by an earlier run, or (none yet) on one that does not exist: a 404.
  const name = known.length ? known[o.label % known.length] : 'no such label';
  if (o.kind === 'note') {
    return {
      answer: call('POST', `${path(name)}/notes`, { text: o.text }),
      judge: (answer, model) => {
        if (!expectRefusedIfHalves(answer, o.text)) return;
        expect([answer.status, answer.body], shown).toEqual([201, { id: expect.any(Number), text: o.text }]);
        model.notes.set(name, [...(model.notes.get(name) ?? []), answer.body]);
      },
    };
  }
  if (recolored.has(name)) return { answer: call('GET', path(name)), judge: (answer) => expect(answer.status).toBe(200) };
  recolored.add(name);
  const body = { name, color: o.color };
  return {
    answer: call('PUT', path(name), body),
    judge: (answer, model) => {
      if (!expectRefusedIfHalves(answer, o.color)) return;
      expect([answer.status, answer.body], shown).toEqual([200, body]);
      model.labels.set(name, body);
    },
  };
}

/**
 * The writer gives back every label the model holds, exactly, and (`notes`) every note under each;
 * every reader gives back what the writer gives, in the same order.
 */
async function expectReadBack(writer: Call, readers: Call[], model: Model, seeded: ReadonlySet<string>, notes: boolean): Promise<void> {
  const made = async (call: Call) => {
    const listed = await call('GET', '/labels');
    expect(listed.status).toBe(200);
    return (listed.body as Label[]).filter((label) => !seeded.has(label.name));
  };
  const written = await made(writer);
  // Created together, taken in whichever order they reached the store.
  expect(sorted(written)).toEqual(sorted([...model.labels.values()]));
  for (const reader of readers) expect(await made(reader), 'the labels, through a reader').toEqual(written);
  if (!notes) return;
  for (const name of [...model.labels.keys()].filter(reachable)) {
    const answer = await writer('GET', `${path(name)}/notes`);
    const expected = [...(model.notes.get(name) ?? [])].sort((a, b) => a.id - b.id);
    expect([answer.status, answer.body], `the notes of ${JSON.stringify(name)}`).toEqual([200, expected]);
    for (const reader of readers) expect((await reader('GET', `${path(name)}/notes`)).body, `the notes of ${JSON.stringify(name)}, through a reader`).toEqual(expected);
  }
}

const sorted = (labels: Label[]) => labels.map((label) => JSON.stringify(label)).sort();
