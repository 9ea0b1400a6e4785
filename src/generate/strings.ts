/**
 * Realistic strings: by format, then by property name (`email`, `city`, a pet's `name`), within
 * the schema's lengths, or matching its pattern.
 */
import type { Faker } from '@faker-js/faker';
import type { SchemaObject } from '../document/schema.js';
import { alphanumeric, attempt, capitalise, isoDateTime, num, own, toJson } from './helpers.js';
import { sampleRegex } from './sample-regex.js';
import { toBase64 } from '../core/bytes.js';
import { linearPattern } from '../core/regex-engine.js';

/** What a value is for, beyond its schema: realistic strings and names come from it. */
export interface GenerateHints {
  /** The property this value is for (`name`, `email`, `createdAt`), used for realistic strings. */
  propertyName?: string;
  /** The collection the record belongs to (`pets`, `categories`), used for realistic names. */
  collection?: string;
}

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
};

// faker.image.url() was the largest item in a profile of seeding; the same kind of URL, built directly.
const photoUrl = (f: Faker): string => `https://picsum.photos/seed/${alphanumeric(f, 8)}/640/480`;

/** Property names whose values are pictures. */
const PICTURE = /image|photo|avatar|picture|thumbnail|logo/i;
const PEOPLE = /^(users?|people|persons?|customers?|owners?|employees?|members?|authors?|accounts?|contacts?)$/i;
const ANIMALS = /^(pets?|animals?|dogs?|cats?|birds?|horses?)$/i;
const nameIn = (f: Faker, collection = ''): string => {
  if (ANIMALS.test(collection)) return f.animal.petName();
  return PEOPLE.test(collection) ? f.person.fullName() : capitalise(f.word.noun());
};
const BY_PROPERTY: [RegExp, (f: Faker, collection?: string) => string][] = [
  [/^(id|uuid|guid)$|_id$|[a-z0-9]Id$|ID$/, (f) => f.string.uuid()],
  [/^(first|given)_?name$/i, (f) => f.person.firstName()],
  [/^(last|family|sur)_?name$/i, (f) => f.person.lastName()],
  [/^(full_?|display_?)?name$/i, nameIn],
  [/user_?name|login|nickname/i, (f) => f.internet.username()],
  [/e_?mail/i, (f) => f.internet.email()],
  [/phone|mobile|^tel|fax/i, (f) => f.phone.number()],
  [/password|secret/i, (f) => f.internet.password({ length: 12 })],
  [/^title$|headline|subject/i, (f) => capitalise(f.lorem.words(3))],
  [/description|summary|bio|comment|note|message|text/i, (f) => f.lorem.sentence()],
  [/(At|Date|Time|_at|_date|_on)$|^(date|time|timestamp)$/, isoDateTime],
  [/city|town/i, (f) => f.location.city()],
  // A short list, because location.countryCode() needs the `base` locale, which callers may not load.
  [/country_?code/i, (f) => f.helpers.arrayElement(['US', 'GB', 'DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'JP', 'CA'])],
  [/country/i, (f) => f.location.country()],
  [/^ip(v4)?(_?address)?$/i, (f) => f.internet.ipv4()],
  [/street|address/i, (f) => f.location.streetAddress()],
  [/zip|postal/i, (f) => f.location.zipCode()],
  [/company|organi[sz]ation|employer/i, (f) => f.company.name()],
  [PICTURE, photoUrl],
  [/url|website|homepage|link|href/i, (f) => f.internet.url()],
  [/colou?r/i, (f) => f.color.human()],
  [/^tags?$|label|keyword/i, (f) => f.word.adjective().toLowerCase()],
  [/status/i, (f) => f.helpers.arrayElement(['active', 'pending', 'inactive'])],
  [/currency/i, (f) => f.finance.currencyCode()],
];

type Producer = (f: Faker, collection?: string) => string;

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
  /** Which Faker method makes the strings, by property name (null: none does). */
  producers: Map<string, Producer | null>;
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
      producers: new Map(),
    };
    plans.set(s, plan);
  }
  return plan;
}

function producerFor(plan: StringPlan, s: SchemaObject, propertyName: string): Producer | undefined {
  let producer = plan.producers.get(propertyName);
  if (producer === undefined) plan.producers.set(propertyName, (producer = chooseProducer(s, propertyName)));
  return producer ?? undefined;
}

function chooseProducer(s: SchemaObject, propertyName: string): Producer | null {
  // A photo's URI is an image URL (realistic, and cheaper than a random site's).
  const photo = /^(uri|url|iri)$/.test(String(s.format)) && PICTURE.test(propertyName);
  const format = photo ? photoUrl : own(FORMATS, s.format);
  return format ?? BY_PROPERTY.find(([test]) => test.test(propertyName))?.[1] ?? null;
}

export function generateString(faker: Faker, s: SchemaObject, hints: GenerateHints): string {
  const plan = planOf(s);
  const { min, max, fits, regex, matches } = plan;
  if (regex) {
    const matched = fromPattern(faker, s.pattern ?? '', regex, matches, fits) ?? documentedString(faker, plan, matches);
    if (matched !== undefined) return matched;
  }
  const producer = producerFor(plan, s, hints.propertyName ?? '');
  let value = produce(faker, plan, producer, hints.collection);
  // Another try is better than cutting an email or a date into something malformed.
  for (let tries = 0; tries < 5 && !fits(value); tries++) value = produce(faker, plan, producer, hints.collection);
  const cut = value.length > max ? value.slice(0, max).trimEnd() : value;
  return cut.length < min ? cut + faker.string.alpha({ length: min - cut.length, casing: 'lower' }) : cut;
}

/** One candidate. A Faker method can throw for data the caller's locale lacks: then a documented string or plain words. */
function produce(faker: Faker, plan: StringPlan, producer: Producer | undefined, collection: string | undefined): string {
  return attempt(() => producer?.(faker, collection))
    ?? (faker.datatype.boolean() ? documentedString(faker, plan, plan.fits) : undefined)
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
