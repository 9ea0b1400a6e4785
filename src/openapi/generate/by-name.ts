/**
 * Values chosen from a property's name and the document's examples, where the schema leaves the
 * choice open (no `format`, `enum`, `pattern` or `const`): one table of rules, name pattern to
 * generator, read top to bottom. `date_created` is a date in the shape the document's examples
 * use (`Mon, 16 Aug 2010 03:45:01 +0000`), `uri` a URL (relative where the examples are), `sid`
 * an identifier with the examples' prefix. Examples decide before names: a name whose examples
 * are not of its rule's kind (`queue_time: "1000"`) is not taken by that rule, and a property
 * whose examples are all of one kind (`to: "+14155550134"`) gets that kind whatever its name.
 * Whatever a rule makes, the caller still keeps it to the schema (lengths, bounds).
 */
import type { Faker } from '@faker-js/faker';
import type { NameExamples } from './evidence.js';
import { alphanumeric, capitalise, dateIn, isoDateTime } from './helpers.js';
import {
  commonDateShape, DATE_ONLY, dateShapeOf, decimalShapeOf, formatDate, ISO_DATE_TIME, makeDecimal, makeToken,
  PHONE, redrawIdentifiers, redrawPhone, tokenShapeOf, type DateShape,
} from './shapes.js';

/** Makes one value; `collection` is the record's collection (`pets`, `users`), for names. */
export type Producer<T> = (f: Faker, collection?: string) => T;

/** What a rule knows when it is chosen for a property: worked out once per property, not per value. */
export interface RuleContext {
  /** The property's name as the rules read it (snakeName). */
  propertyName: string;
  /** The property's examples: its schema's own first, then the document's for that name. */
  examples: NameExamples;
  /** The shape most of the document's date-time examples have, if it gives any. */
  documentDates: () => DateShape | undefined;
}

export interface NameRule {
  /** What the values are (docs/mock.md groups the rules in a table). */
  what: string;
  /** The property names it serves. */
  names?: RegExp;
  /**
   * Examples of its kind. A property whose examples all pass gets this rule whatever its name (when
   * no rule names it); a property it names whose examples do not all pass is left to the others.
   */
  examples?: (example: string) => boolean;
  /** The name decides even where the examples are not of this kind (a `phone` whose example is `12345`). */
  nameDecides?: boolean;
  /** The producer of strings (or numbers) for a property, or undefined when the examples rule it out. */
  string?: (context: RuleContext) => Producer<string> | undefined;
  number?: (context: RuleContext) => Producer<number> | undefined;
}

// ---- Helpers of the rules

const pick = <T>(values: readonly T[]): Producer<T> => (f) => f.helpers.arrayElement(values);
const fixed = (make: Producer<string>) => (): Producer<string> => make;
/** One of the examples, when there are any; else `otherwise`. */
const examplesOr = (c: RuleContext, otherwise: Producer<string>): Producer<string> =>
  c.examples.strings.length > 0 ? pick(c.examples.strings) : otherwise;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URL_LIKE = /^(https?:\/\/[^\s/]+[^\s]*|\/[^\s]*)$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/;
const IPV4 = /^(\d{1,3}\.){3}\d{1,3}$/;
const IPV6 = /^[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}$/i;
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;
const looksLikePhone = (e: string) => PHONE.test(e) && /[+()\s-]/.test(e) && (e.match(/\d/g)?.length ?? 0) >= 7;

/** Names whose dates have no time of day. */
const DATE_ONLY_NAME = /(^|_)(day|birthday|dob|birth_?date|date_of_birth)$/;

function dateProducer(c: RuleContext): Producer<string> | undefined {
  const own = commonDateShape(c.examples.strings);
  const shape = own ?? (DATE_ONLY_NAME.test(c.propertyName) ? DATE_ONLY : c.documentDates() ?? ISO_DATE_TIME);
  return shape === ISO_DATE_TIME ? isoDateTime : (f) => formatDate(dateIn(f), shape);
}

/** Seconds since 1970 (milliseconds where the examples have 13 digits), or nothing when the examples are no such times. */
function epochProducer(c: RuleContext): Producer<number> | undefined {
  const { numbers } = c.examples;
  const millis = numbers.length > 0 && numbers.every((n) => n >= 1e11 && n < 1e14);
  if (numbers.length > 0 && !millis && !numbers.every((n) => n >= 1e8 && n < 1e11)) return undefined;
  return (f) => Math.floor(dateIn(f).getTime() / (millis ? 1 : 1000));
}

/** An identifier like the examples (`AC` and 32 hex digits), a UUID where they are UUIDs or there are none. */
function identifierProducer(c: RuleContext): Producer<string> {
  const { strings } = c.examples;
  if (strings.length === 0 || strings.every((s) => UUID.test(s))) {
    // A Twilio-like `account_sid` without examples: two letters of its name, then 32 hex digits.
    const sid = /^(.*?)_?sid$/.exec(c.propertyName);
    const stem = (sid?.[1] || '').replace(/[^A-Za-z]/g, '');
    if (sid && stem.length >= 2) {
      const shape = { prefix: stem.slice(0, 2).toUpperCase(), alphabet: [...'0123456789abcdef'], min: 32, max: 32 };
      return (f) => makeToken(f, shape);
    }
    return (f) => f.string.uuid();
  }
  const shape = tokenShapeOf(strings);
  return shape ? (f) => makeToken(f, shape) : (f) => f.string.uuid();
}

function urlProducer(c: RuleContext): Producer<string> {
  const shaped = c.examples.strings.filter((s) => URL_LIKE.test(s));
  return shaped.length > 0 ? (f) => redrawIdentifiers(f, f.helpers.arrayElement(shaped)) : (f) => f.internet.url();
}

function phoneProducer(c: RuleContext): Producer<string> {
  const shaped = c.examples.strings.filter(looksLikePhone);
  return shaped.length > 0 ? (f) => redrawPhone(f, f.helpers.arrayElement(shaped)) : (f) => f.phone.number({ style: 'international' });
}

function decimalProducer(c: RuleContext): Producer<string> | undefined {
  const shape = c.examples.strings.length > 0 ? decimalShapeOf(c.examples.strings) : { decimals: 2, negative: false, max: 1000 };
  return shape && ((f) => makeDecimal(f, shape));
}

/** A value in [min, max] with `decimals` digits after the point. */
const within = (min: number, max: number, decimals: number): Producer<number> => (f) =>
  Number((min + (f.number.int({ min: 0, max: (max - min) * 10 ** decimals }) / 10 ** decimals)).toFixed(decimals));

// A short list, because location.countryCode() needs the `base` locale, which callers may not load.
const COUNTRY_CODES = ['US', 'GB', 'DE', 'FR', 'NL', 'ES', 'IT', 'SE', 'JP', 'CA'];
const COUNTRY_CODES_3 = ['USA', 'GBR', 'DEU', 'FRA', 'NLD', 'ESP', 'ITA', 'SWE', 'JPN', 'CAN'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'sv', 'ja'];
const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'nl-NL', 'ja-JP'];
const MEDIA_TYPES = ['application/json', 'application/pdf', 'image/png', 'image/jpeg', 'text/plain', 'text/csv'];

// faker.image.url() was the largest item in a profile of seeding; the same kind of URL, built directly.
export const photoUrl = (f: Faker): string => `https://picsum.photos/seed/${alphanumeric(f, 8)}/640/480`;

/** Property names whose values are pictures. */
export const PICTURE = /image|photo|avatar|picture|thumbnail|logo/i;
const PEOPLE = /^(users?|people|persons?|customers?|owners?|employees?|members?|authors?|accounts?|contacts?)$/i;
const ANIMALS = /^(pets?|animals?|dogs?|cats?|birds?|horses?)$/i;
const WORKS = /^(books?|items?|titles?|albums?|movies?|films?|songs?|tracks?|publications?|audiobooks?)$/i;
const nameIn = (f: Faker, collection = ''): string => {
  if (ANIMALS.test(collection)) return f.animal.petName();
  return PEOPLE.test(collection) ? f.person.fullName() : capitalise(f.word.noun());
};
const titleIn = (f: Faker, collection = ''): string => (WORKS.test(collection) ? f.book.title() : capitalise(f.git.commitMessage()));

/**
 * The rules, first match wins. A rule's `names` is tested against the property name in snake case
 * (snakeName: `dateCreated`, `DateCreated` and `date_created` are all `date_created`), so a pattern
 * names words, not endings (`paid` is no `id`, `description` no `*_on`); its `examples` against each
 * of the property's examples.
 */
export const RULES: readonly NameRule[] = [
  {
    what: 'an identifier in the shape of the examples (`AC` + 32 hex digits), else a UUID',
    names: /(^|_)(id|uuid|guid|sid|key)$/,
    string: identifierProducer,
  },
  { what: 'a UUID', examples: (e) => UUID.test(e), string: fixed((f) => f.string.uuid()) },
  { what: 'a time zone (`Europe/Berlin`)', names: /(^|_)(time_?zone|tz)$/, string: (c) => examplesOr(c, (f) => f.location.timeZone()) },
  {
    what: 'seconds since 1970 (milliseconds if the examples are)',
    names: /(^|_)(timestamp|created|updated|modified|deleted|expires|at)$/,
    number: epochProducer,
  },
  {
    what: 'a date-time in the shape of the examples, or of the document\'s other dates (RFC 2822, ISO 8601); a date for `*_day`, `birthday`',
    names: /(^|_)(date|time|timestamp|date_?time|day)(_|$)|_(at|on)$|(^|_)(created|updated|modified|deleted|expires|expiry|expiration|published|birthday|dob)$/,
    examples: (e) => dateShapeOf(e) !== undefined,
    string: dateProducer,
  },
  { what: 'a picture\'s URL', names: /image|photo|avatar|picture|thumbnail|logo/, string: fixed(photoUrl) },
  {
    what: 'a URL like the examples (relative where they are), its identifiers drawn again; else an https URL',
    names: /(^|_)(uri|url|href|link|website|homepage|endpoint|callback)s?$/,
    examples: (e) => URL_LIKE.test(e),
    string: urlProducer,
  },
  { what: 'an email address', names: /e_?mail/, examples: (e) => EMAIL.test(e), string: fixed((f) => f.internet.email()) },
  {
    what: 'a phone number like the examples (E.164 where they are), else E.164',
    names: /phone|mobile|(^|_)(tel|telephone|fax|cell)(_|$)/,
    examples: looksLikePhone,
    nameDecides: true,
    string: phoneProducer,
  },
  { what: 'a password', names: /password|secret/, string: fixed((f) => f.internet.password({ length: 12 })) },
  { what: 'a first name', names: /^(first|given)_?name$/, string: fixed((f) => f.person.firstName()) },
  { what: 'a last name', names: /^(last|family|sur)_?name$/, string: fixed((f) => f.person.lastName()) },
  { what: 'a user name', names: /user_?name|(^|_)(login|nick_?name|screen_name|handle)$/, string: fixed((f) => f.internet.username()) },
  { what: 'a file name', names: /(^|_)file_?name$/, string: fixed((f) => f.system.fileName()) },
  { what: 'a company', names: /company|organi[sz]ation|employer/, string: fixed((f) => f.company.name()) },
  { what: 'a product', names: /^product_name$/, string: fixed((f) => f.commerce.productName()) },
  {
    what: 'a person\'s name',
    names: /(passenger|customer|owner|author|contact|caller|holder|recipient|sender|guest|patient|student|employee|member|driver|person|buyer|seller|assignee|reporter|manager)_name$/,
    string: fixed((f) => f.person.fullName()),
  },
  { what: 'a name: a pet\'s in pets, a person\'s in users, else a noun', names: /^((full|display|friendly)_?)?name$/, string: fixed(nameIn) },
  { what: 'a title: a book\'s in books, else a short phrase', names: /^title$|headline|subject/, string: fixed(titleIn) },
  {
    what: 'a sentence',
    names: /description|summary|(^|_)(desc|bio|biography|comments?|notes?|message|text|body|content|caption|remarks?|instructions|details?)$/,
    string: fixed((f) => f.hacker.phrase()),
  },
  { what: 'a city', names: /(^|_)(city|town)(_|$)/, string: fixed((f) => f.location.city()) },
  {
    what: 'a country code (ISO 3166, two or three letters as the examples)',
    names: /country_?code|^country$/,
    string: (c) => {
      if (c.examples.strings.length > 0 && c.examples.strings.every((e) => /^[A-Z]{3}$/.test(e))) return pick(COUNTRY_CODES_3);
      if (c.examples.strings.length > 0 && !c.examples.strings.every((e) => /^[A-Z]{2}$/.test(e))) return (f) => f.location.country();
      return /code/.test(c.propertyName) || c.examples.strings.length > 0 ? pick(COUNTRY_CODES) : (f) => f.location.country();
    },
  },
  { what: 'a country', names: /country/, string: fixed((f) => f.location.country()) },
  { what: 'an IP address', names: /^ip(v4)?(_?address)?$|_ip$/, examples: (e) => IPV4.test(e), string: fixed((f) => f.internet.ipv4()) },
  { what: 'an IPv6 address', names: /^ipv6(_?address)?$/, examples: (e) => IPV6.test(e), string: fixed((f) => f.internet.ipv6()) },
  { what: 'a MAC address', names: /mac_?address/, string: fixed((f) => f.internet.mac()) },
  { what: 'a street address', names: /street|address/, string: fixed((f) => f.location.streetAddress()) },
  { what: 'a postal code', names: /zip|postal|post_?code/, string: fixed((f) => f.location.zipCode()) },
  { what: 'a region', names: /^(province|region|county)$/, string: fixed((f) => f.location.state()) },
  { what: 'a latitude', names: /^lat(itude)?$/, number: () => within(-90, 90, 6), string: () => (f) => within(-90, 90, 6)(f).toFixed(6) },
  { what: 'a longitude', names: /^(lng|lon|long|longitude)$/, number: () => within(-180, 180, 6), string: () => (f) => within(-180, 180, 6)(f).toFixed(6) },
  {
    what: 'a colour (`#a6b29d` where the examples are hex)',
    names: /colou?r/,
    examples: (e) => HEX_COLOUR.test(e),
    string: (c) => (c.examples.strings.some((e) => HEX_COLOUR.test(e)) ? (f) => f.color.rgb() : (f) => f.color.human()),
  },
  {
    what: 'a language or locale (`en`, `en-US`, as the examples)',
    names: /(^|_)(locale|lang|language)(_code)?$/,
    string: (c) => {
      const { strings } = c.examples;
      if (strings.length > 0 && strings.every((e) => /^[a-z]{2}$/.test(e))) return pick(LANGUAGES);
      const separator = strings.some((e) => /^[a-z]{2}_[A-Z]{2}$/.test(e)) ? '_' : '-';
      return pick(LOCALES.map((l) => l.replace('-', separator)));
    },
  },
  {
    what: 'a currency: one of the examples (`USD`), else an ISO 4217 code',
    names: /currency|price_unit|^ccy$/,
    examples: (e) => /^[A-Za-z]{3}$/.test(e),
    string: (c) => examplesOr(c, (f) => f.finance.currencyCode()),
  },
  {
    what: 'a decimal string with the examples\' decimals and sign (`-0.03000`), else two decimals',
    names: /(^|_)(price|amount|cost|total|fee|fees|balance|subtotal|tax|salary|discount)(_|$)/,
    examples: (e) => /^-?\d{1,15}(\.\d{1,10})?$/.test(e),
    string: decimalProducer,
  },
  { what: 'a year', names: /(^|_)year$/, number: () => (f) => f.number.int({ min: 1990, max: 2025 }) },
  { what: 'a version: one of the examples, else semver', names: /(^|_)version$/, string: (c) => examplesOr(c, (f) => f.system.semver()) },
  { what: 'an HTTP method', names: /(^|_)method$/, string: (c) => examplesOr(c, pick(['GET', 'POST'])) },
  { what: 'a host name', names: /^(host|hostname|domain)(_?name)?$|_(host|domain)$/, string: fixed((f) => f.internet.domainName()) },
  { what: 'a slug', names: /slug/, string: fixed((f) => f.helpers.slugify(f.word.words(3)).toLowerCase()) },
  { what: 'a media type', names: /^(content_?type|mime_?type|media_?type)$/, string: fixed(pick(MEDIA_TYPES)) },
  { what: 'an ISBN', names: /isbn/, string: fixed((f) => f.commerce.isbn()) },
  { what: 'a tag', names: /^tags?$|label|keyword/, string: fixed((f) => f.word.adjective().toLowerCase()) },
  { what: 'a status: one of the examples, else `active`, `pending` or `inactive`', names: /status/, string: (c) => examplesOr(c, pick(['active', 'pending', 'inactive'])) },
];

/** A name as the rules read it: snake case, lower case (`dateCreated`, `DateCreated` and `date_created` are `date_created`; `userID` is `user_id`). */
export function snakeName(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[\s.-]+/g, '_')
    .toLowerCase();
}

export type ValueKind = 'string' | 'number';

/**
 * The producer for a property, or undefined when no rule applies (the caller then falls back on the
 * examples themselves, or words). The rule that names the property, unless its examples say
 * otherwise; else the rule whose kind all the examples are.
 */
export function chooseByName<K extends ValueKind>(
  kind: K,
  propertyName: string,
  examples: NameExamples,
  documentDates: () => DateShape | undefined,
): Producer<K extends 'string' ? string : number> | undefined {
  const name = snakeName(propertyName);
  const context: RuleContext = { propertyName: name, examples, documentDates };
  const strings = examples.strings;
  const candidates: NameRule[] = [];
  const named = name ? RULES.find((rule) => rule[kind] && rule.names?.test(name)) : undefined;
  const contradicted = named?.examples && !named.nameDecides && kind === 'string' && strings.length > 0 && !strings.every(named.examples);
  if (named && !contradicted) candidates.push(named);
  if (kind === 'string' && strings.length > 0) {
    const recognised = RULES.find((rule) => rule !== named && rule.string && rule.examples && strings.every(rule.examples));
    if (recognised) candidates.push(recognised);
  }
  for (const rule of candidates) {
    const producer = rule[kind]?.(context);
    if (producer) return producer as Producer<K extends 'string' ? string : number>;
  }
  return undefined;
}
