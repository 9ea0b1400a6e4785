/**
 * Operations that apply to many records at once, read from the document alone: a query parameter
 * that selects the records (LoopBack's `where`, a `filter`, a JSON-encoded object), or an answer
 * that counts the records changed (`{count: 4}`). Such a write is no create and no change of one
 * record: the mock does not bind it to a record, and the contract suite never sends it.
 */
import type { ParameterSpec, SchemaObject } from '../document/schema.js';
import type { Operation } from './operation.js';

/** Query parameters that choose which records a request applies to. */
const SELECTOR = /^(where|filter|filters|q|query|search|match|criteria|conditions?|ids?|all|select|selector|scope)$/i;

/** Properties of an answer that count the records a request touched. */
const COUNT = /^(count|total|affected|affectedrows|rowsaffected|numaffected|updated|deleted|removed|modified|matched|changes|(matched|modified|deleted|updated|upserted)count|n|nmodified)$/i;

/** The query parameter that selects the records an operation applies to, if it has one. */
export function recordSelector(op: Operation): ParameterSpec | undefined {
  return op.parameters.find((p) => p.in === 'query' && (SELECTOR.test(p.name) || isObject(p.schema) || hasContent(op, p.name)));
}

/** True when every 2xx answer with a JSON body is a count of records (an integer, or an object of counts alone). */
export function countsRecords(op: Operation): boolean {
  const schemas = op.responses
    .filter((r) => /^2/.test(r.status))
    .flatMap((r) => Object.entries(r.content).filter(([media]) => /json/i.test(media)).map(([, m]) => m.schema))
    .filter((s): s is SchemaObject => s !== undefined);
  return schemas.length > 0 && schemas.every((s) => {
    if (s.type === 'integer' || s.type === 'number') return true;
    const properties = Object.entries(s.properties ?? {});
    return properties.length > 0 && properties.every(([name, p]) => COUNT.test(name) && (p?.type === undefined || p.type === 'integer' || p.type === 'number'));
  });
}

function isObject(schema: SchemaObject | undefined): boolean {
  return schema?.type === 'object' || (schema?.properties !== undefined && schema?.type === undefined);
}

/** A parameter given as `content` (a JSON-encoded filter): its schema is then no plain value. */
function hasContent(op: Operation, name: string): boolean {
  const declared = Array.isArray(op.source.parameters) ? op.source.parameters : [];
  return declared.some((p) => p?.name === name && p?.in === 'query' && p?.content !== undefined);
}
