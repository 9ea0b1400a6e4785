/**
 * Requests at the edges, which must never crash a server (no 5xx), whatever the document says of
 * them: a record pointing at a parent that does not exist, the delete of a parent its child still
 * points at (and the read of that child before and after it), and page sizes and offsets beyond any sensible bound (negative, enormous). Each is
 * aimed at records the suite creates; what a server does with them beyond not failing is left to
 * the checks the document's promises feed (a declared 4xx, a schema).
 */
import type { Collection } from '../../openapi/operations/collection.js';
import { paginationOf } from '../../openapi/operations/pagination.js';
import type { CheckId } from '../check-id.js';
import type { ContractContext } from '../context.js';
import type { Phase, Targets } from './phase.js';
import { createRecord, missingKey } from './records.js';

const CHECKS: CheckId[] = ['edge_cases'];
/** Probes claim nothing the document's validator could confirm: a bound the schema may or may not state, a reference to nothing. */
const UNJUDGED = 'an edge probe: only a 5xx is wrong';

/** A child whose reference names a parent no record is: refused or accepted, never a 5xx. */
async function danglingReference(ctx: ContractContext, targets: Targets, child: Collection, property: string, parent: Collection): Promise<void> {
  const create = ctx.operation(child, 'create');
  if (!create || !ctx.bodies.canBuildValid(create)) return;
  // The key is read first: only one a read shows free is sent (a write never names a record of others, safety.ts).
  const read = ctx.operation(parent, 'read');
  const missing = missingKey(ctx, parent);
  if (!read || parent.scopeParams.length) return;
  await ctx.request(read, { label: `check that ${parent.keyParam} ${String(missing)} is free`, params: { [parent.keyParam]: missing }, intent: 'unknown' });
  if (!ctx.own.isFree(parent, missing)) return;
  const body = ctx.bodies.valid(create, await ownReferences(ctx, targets, child, property), { ...(await targets.prepare[child.name]?.(ctx)), [property]: missing });
  const label = `a ${child.name} record whose ${property} names no ${parent.name} record`;
  await ctx.request(create, { label, body, intent: 'invalid', unjudged: UNJUDGED, fits: [400, 404, 409, 422], purpose: { check: 'edge_cases', edge: 'dangling-reference' } });
}

/** The child's other references, pointing at the suite's own records (the probe is about one dangling reference only). */
async function ownReferences(ctx: ContractContext, targets: Targets, child: Collection, except: string): Promise<Record<string, unknown>> {
  const refs: Record<string, unknown> = {};
  for (const reference of child.references) {
    const target = ctx.collections.find((c) => c.name === reference.collection);
    if (!target || reference.property === except || reference.property === child.keyProperty) continue;
    const key = target === child ? undefined : (await targets.record(target))?.[target.keyProperty];
    refs[reference.property] = ctx.isOwn(target, key) ? key : undefined;
  }
  return refs;
}

/**
 * The delete of a parent one of the suite's own children still points at: refused or done, never a
 * 5xx. A plugin's preparation of the child (an order needs a pet with stock) is used when it
 * names the parent itself.
 */
async function parentInUse(ctx: ContractContext, targets: Targets, child: Collection, property: string, parent: Collection): Promise<void> {
  const remove = ctx.operation(parent, 'delete');
  if (!remove || !ctx.operation(parent, 'create') || !ctx.operation(child, 'create')) return;
  const prepared = (await targets.prepare[child.name]?.(ctx)) ?? {};
  let parentKey = prepared[property];
  if (parentKey === undefined) {
    const owner = await createRecord(ctx, parent, {}, targets.prepare);
    if (!owner) return;
    parentKey = owner[parent.keyProperty];
  }
  const kid = await createRecord(ctx, child, { ...prepared, [property]: parentKey });
  if (!kid) return;
  const read = ctx.operation(child, 'read');
  const childParams = { [child.keyParam]: kid[child.keyProperty] };
  const readChild = (label: string) => ctx.request(read!, { label, params: childParams, intent: 'guessed', purpose: { check: 'edge_cases', edge: 'parent-in-use' } });
  const readable = read && kid[child.keyProperty] !== undefined && ctx.isOwn(child, kid[child.keyProperty]);
  if (readable) await readChild(`read the ${child.name} record before the ${parent.name} record it points at is deleted`);
  const label = `delete a ${parent.name} record that a ${child.name} record still points at`;
  const deleted = await ctx.request(remove, { label, params: { [parent.keyParam]: parentKey }, intent: 'invalid', unjudged: UNJUDGED, fits: [409], purpose: { check: 'edge_cases', edge: 'parent-in-use' } });
  // Deleted: the child must still read (as itself, or as gone), not break every later read of it with a 5xx.
  if (readable && deleted.status >= 200 && deleted.status < 300) await readChild(`read the ${child.name} record after the ${parent.name} record it points at was deleted`);
}

/** Page sizes and offsets past their bounds (or, where none is declared, absurd): a 4xx or a page, never a 5xx. */
async function pagingBounds(ctx: ContractContext, collection: Collection): Promise<void> {
  const list = ctx.operation(collection, 'list');
  if (!list || collection.scopeParams.length) return;
  const { limit, offset, page } = paginationOf(list);
  for (const parameter of [limit, offset, page]) {
    if (!parameter) continue;
    const max = typeof parameter.schema?.maximum === 'number' ? parameter.schema.maximum : 1_000_000;
    for (const value of [-1, max * 10 + 1]) {
      const label = `query.${parameter.name}=${value}, past its bounds`;
      await ctx.request(list, { label, query: `${encodeURIComponent(parameter.name)}=${value}`, intent: 'invalid', unjudged: UNJUDGED, purpose: { check: 'edge_cases', edge: 'paging-bounds' } });
    }
  }
}

export const probesPhase: Phase = {
  name: 'probes',
  checks: CHECKS,
  changesState: true,
  async run(ctx, targets) {
    for (const collection of ctx.collections) {
      await pagingBounds(ctx, collection);
      for (const reference of collection.references) {
        const parent = ctx.collections.find((c) => c.name === reference.collection);
        if (!parent || parent === collection || reference.property === collection.keyProperty || collection.scopeParams.length) continue;
        await danglingReference(ctx, targets, collection, reference.property, parent);
        await parentInUse(ctx, targets, collection, reference.property, parent);
      }
    }
  },
};
