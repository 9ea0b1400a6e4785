/**
 * Checks a document against the OpenAPI meta-schema with the validators precompiled by the build,
 * or, running from the sources before a build, with the meta-schema compiled once (meta-schemas.ts,
 * the same schemas). Its problem is said in words (describe-meta-problem.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describeMetaProblem, type MetaProblem } from './describe-meta-problem.js';
import { META_VALIDATORS_DIR } from './meta-validators-dir.js';
import { metaAjv, openApiMetaSchema } from './meta-schemas.js';

type Validate = ((data: unknown) => boolean) & { errors?: MetaProblem[] | null };
type Json = Record<string, any>;

interface Checker {
  validate: Validate;
  /** The meta-schema, read when a problem is to be said. */
  schema: () => Json | undefined;
}

const checkers = new Map<string, Checker | undefined>();

/** @returns 'unavailable' (no validator could be had), undefined when the document is valid, or its problem in words (`#/paths/~1a/get lacks the required field \`responses\``). */
export function validateMetaSchema(document: unknown, dialect: '3.0' | '3.1'): string | undefined | 'unavailable' {
  if (!checkers.has(dialect)) checkers.set(dialect, precompiled(dialect) ?? compiled(dialect));
  const checker = checkers.get(dialect);
  if (!checker) return 'unavailable';
  if (checker.validate(document)) return undefined;
  return describeMetaProblem(checker.validate.errors ?? [], document, checker.schema);
}

function precompiled(dialect: '3.0' | '3.1'): Checker | undefined {
  const file = `${META_VALIDATORS_DIR}/openapi-${dialect}`;
  if (!existsSync(`${file}.cjs`)) return undefined;
  const exported = createRequire(import.meta.url)(`${file}.cjs`) as Validate | { default: Validate };
  let schema: Json | undefined;
  const read = () => (schema ??= existsSync(`${file}.json`) ? (JSON.parse(readFileSync(`${file}.json`, 'utf8')) as Json) : undefined);
  return { validate: typeof exported === 'function' ? exported : exported.default, schema: read };
}

/** From the sources (the development dependencies): compiled once per process (0.6 s for 3.1, 0.9 s for 3.0, measured on 2 busy cores; swagger-parser compiled it at every load). */
function compiled(dialect: '3.0' | '3.1'): Checker | undefined {
  try {
    const schema = openApiMetaSchema(dialect);
    return { validate: metaAjv(dialect).compile(schema) as Validate, schema: () => schema };
  } catch {
    return undefined;
  }
}
