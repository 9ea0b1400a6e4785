/**
 * Realistic strings: matching the schema's pattern, else by format, else by property name and the
 * document's examples (`email`, a pet's `name`, `date_created` as the examples write dates: see
 * by-name.ts), else one of the examples; always within the schema's lengths.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';
import { attempt, dateIn, isObject, isoDateTime, num, own, toJson } from './helpers.js';
import { chooseByName, photoUrl, PICTURE, type Producer } from './by-name.js';
import { NO_EVIDENCE, type Evidence } from './evidence.js';
import { formatDate, dateShapeOf } from './shapes.js';
import { sampleRegex } from './sample-regex.js';
import { createFaker } from './create-faker.js';
import { toBase64 } from '../../core/bytes.js';
import { linearPattern } from '../../core/regex-engine.js';

/** What a value is for, beyond its schema: realistic strings and names come from it. */
export interface GenerateHints {
  /** The property this value is for (`name`, `email`, `createdAt`), used for realistic strings. */
  propertyName?: string;
  /** The collection the record belongs to (`pets`, `categories`), used for realistic names. */
  collection?: string;
  /**
   * The document's schema whose examples this value follows, when the schema generated is a copy
   * made for it (a collection's key: its path parameter's schema merged with the record's property).
   */
  examplesOf?: unknown;
}

const RFC_2822 = dateShapeOf('Mon, 16 Aug 2010 03:45:01 +0000')!;

const FORMATS: Record<string, (f: Faker) => string> = {
  'date-time': isoDateTime, 'iso-date-time': isoDateTime,
  date: (f) => isoDateTime(f).slice(0, 10),
  time: (f) => isoDateTime(f).slice(11), 'iso-time': (f) => isoDateTime(f).slice(11),
  email: (f) => f.internet.email(), 'idn-email': (f) => f.internet.email(),
  uri: (f) => f.internet.url(), url: (f) => f.internet.url(), 'uri-reference': (f) => f.internet.url(),
  iri: (f) => f.internet.url(), 'iri-reference': (f) => f.internet.url(), 'uri-template': (f) => f.internet.url(),
  hostname: (f) => f.internet.domainName(), 'idn-hostname': (f) => f.internet.domainName(),
  ipv4: (f) => f.internet.ipv4(), ipv6: (f) => f.internet.ipv6(), uuid: (f) => f.string.uuid(),
  byte: (f) => toBase64(f.lorem.words(3)),
  binary: (f) => f.string.alphanumeric(16), password: (f) => f.internet.password({ length: 12 }),
  duration: (f) => `P${f.number.int({ min: 1, max: 30 })}D`, 'json-pointer': (f) => `/${f.lorem.word()}`,
  // Formats some documents name that JSON Schema does not (Twilio's): validators accept any string for them.
  'date-time-rfc-2822': (f) => formatDate(dateIn(f), RFC_2822), 'phone-number': (f) => f.phone.number({ style: 'international' }),
};

type StringProducer = Producer<string>;

/** What a schema's strings need that depends only on the schema, worked out once per schema object. */
interface StringPlan {
  min: number;
  max: number;
  fits: (v: string) => boolean;
  regex: RegExp | undefined;
  /** Whether a string matches the pattern, as the validators judge it: in linear time, never backtracking (regex-engine.ts). */
  matches: (v: string) => boolean;
  /** The schema's own `example`/`examples`/`default` strings. */
  documented: string[];
  /** How the strings are made, per document (its evidence), then per property name. */
  choices: WeakMap<Evidence, Choices>;
  /** Those of the document last generated for (nearly always the only one): one lookup per value. */
  current?: Choices;
}

interface Choices {
  evidence: Evidence;
  /** Per property name, following this schema's examples. */
  own: Map<string, Choice>;
  /** Per schema whose examples a copy of this one follows (GenerateHints.examplesOf), then per property name. */
  copies: WeakMap<object, Map<string, Choice>>;
}

/** How a property's strings are made: by a format or a rule, else from `examples` (the schema's and the document's that fit), else words. */
interface Choice {
  producer: StringProducer | undefined;
  examples: string[];
  /** The producer, where the schema has a pattern its values match (a `date` with `\d{4}-\d{2}-\d{2}`): tried before the pattern's own strings. */
  matching?: StringProducer;
}

/** A Faker of its own, re-seeded for each probe: whether a producer's values match a pattern is decided the same way every run. */
let probeFaker: Faker | undefined;
function alwaysMatches(producer: StringProducer, matches: (v: string) => boolean, collection?: string): boolean {
  const probe = (probeFaker ??= createFaker());
  probe.seed(28);
  for (let i = 0; i < 3; i++) {
    const value = attempt(() => producer(probe, collection));
    if (value === undefined || !matches(value)) return false;
  }
  return true;
}

const plans = new WeakMap<SchemaObject, StringPlan>();

function planOf(s: SchemaObject): StringPlan {
  let plan = plans.get(s);
  if (!plan) {
    const min = Math.max(0, Math.floor(num(s.minLength) ?? 0));
    const max = Math.max(min, Math.floor(num(s.maxLength) ?? Infinity));
    const candidates = [s.example, ...(Array.isArray(s.examples) ? s.examples : []), s.default];
    plan = {
      min,
      max,
      fits: (v) => v.length >= min && v.length <= max,
      // Without the `g` or `y` flag a RegExp keeps no state between tests, so one serves every call.
      regex: typeof s.pattern === 'string' ? compileRegex(s.pattern) : undefined,
      matches: typeof s.pattern === 'string' ? patternTest(s.pattern) : () => true,
      documented: candidates.map((v) => toJson(v, s)).filter((v): v is string => typeof v === 'string'),
      choices: new WeakMap(),
    };
    plans.set(s, plan);
  }
  return plan;
}

function choiceFor(plan: StringPlan, s: SchemaObject, hints: GenerateHints, evidence: Evidence): Choice {
  const propertyName = hints.propertyName ?? '';
  let current = plan.current;
  if (current?.evidence !== evidence) {
    current = plan.choices.get(evidence);
    if (!current) plan.choices.set(evidence, (current = { evidence, own: new Map(), copies: new WeakMap() }));
    plan.current = current;
  }
  const copied = isObject(hints.examplesOf) ? hints.examplesOf : undefined;
  let byName = copied ? current.copies.get(copied) : current.own;
  if (!byName) current.copies.set(copied!, (byName = new Map()));
  let choice = byName.get(propertyName);
  if (!choice) byName.set(propertyName, (choice = choose(plan, s, propertyName, evidence, copied ?? s)));
  return choice;
}

function choose(plan: StringPlan, s: SchemaObject, propertyName: string, evidence: Evidence, examplesOf: unknown): Choice {
  // The examples at this schema's places in the document, else those of any property of that name.
  const found = evidence.examplesOf(examplesOf) ?? (propertyName ? evidence.examples(propertyName) : undefined);
  const strings = [...new Set([...plan.documented, ...(found?.strings ?? [])])];
  const examples = { strings, numbers: found?.numbers ?? [] };
  // A photo's URI is an image URL (realistic, and cheaper than a random site's).
  const photo = /^(uri|url|iri)$/.test(String(s.format)) && PICTURE.test(propertyName);
  const format = photo ? photoUrl : own(FORMATS, s.format);
  const producer = format ?? chooseByName('string', propertyName, examples, () => evidence.dateShape());
  const matching = producer && plan.regex && alwaysMatches(producer, plan.matches) ? producer : undefined;
  return { producer, examples: strings.filter(plan.fits), matching };
}

export function generateString(faker: Faker, s: SchemaObject, hints: GenerateHints, evidence: Evidence = NO_EVIDENCE): string {
  const plan = planOf(s);
  const { min, max, fits, regex, matches } = plan;
  const choice = choiceFor(plan, s, hints, evidence);
  if (regex) {
    // A realistic value where it matches the pattern (the pattern still decides), else the pattern's own.
    const realistic = choice.matching && attempt(() => choice.matching!(faker, hints.collection));
    if (realistic !== undefined && matches(realistic) && fits(realistic)) return realistic;
    const matched = fromPattern(faker, s.pattern ?? '', regex, matches, fits) ?? documentedString(faker, plan, matches);
    if (matched !== undefined) return matched;
  }
  let value = produce(faker, choice, hints.collection);
  // Another try is better than cutting an email or a date into something malformed.
  for (let tries = 0; tries < 5 && !fits(value); tries++) value = produce(faker, choice, hints.collection);
  const cut = value.length > max ? value.slice(0, max).trimEnd() : value;
  return cut.length < min ? cut + faker.string.alpha({ length: min - cut.length, casing: 'lower' }) : cut;
}

/** One candidate. A Faker method can throw for data the caller's locale lacks: then an example, or plain words. */
function produce(faker: Faker, { producer, examples }: Choice, collection: string | undefined): string {
  return attempt(() => producer?.(faker, collection))
    ?? (examples.length > 0 ? faker.helpers.arrayElement(examples) : undefined)
    ?? faker.lorem.words({ min: 1, max: 3 });
}

/** One of the schema's own `example`/`examples`/`default` strings that passes `accept`. */
function documentedString(faker: Faker, plan: StringPlan, accept: (v: string) => boolean): string | undefined {
  const usable = plan.documented.filter(accept);
  return usable.length > 0 ? faker.helpers.arrayElement(usable) : undefined;
}

/** The pattern as a RegExp, for Faker's fromRegExp, which makes strings from it (RegExp never tests one here). */
function compileRegex(pattern: string): RegExp | undefined {
  return attempt(() => new RegExp(pattern, 'u')) ?? attempt(() => new RegExp(pattern));
}

/** The validators' verdict; a pattern they do not enforce (or cannot read) lets every string pass here too. */
function patternTest(pattern: string): (v: string) => boolean {
  const tester = attempt(() => linearPattern(pattern));
  return tester ? (v) => tester.test(v) : () => true;
}

/** A string matching the pattern (`regex`, `matches`), preferably one that `fits`: Faker's fromRegExp first, then our sampler. */
function fromPattern(faker: Faker, pattern: string, regex: RegExp, matches: (v: string) => boolean, fits: (v: string) => boolean) {
  let fallback: string | undefined;
  // fromRegExp reads escapes (`\d`), groups and alternation literally: those go straight to our sampler.
  const fakerCan = !/[\\(|]/.test(pattern);
  for (let tries = 0; tries < 10; tries++) {
    const useFaker = fakerCan && tries < 3;
    const candidate = attempt(() => (useFaker ? faker.helpers.fromRegExp(regex) : sampleRegex(faker, pattern)));
    if (candidate === undefined || !matches(candidate)) continue;
    if (fits(candidate)) return candidate;
    fallback ??= candidate;
  }
  return fallback;
}
