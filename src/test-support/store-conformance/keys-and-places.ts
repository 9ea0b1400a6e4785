/**
 * Part of the store conformance suite (../store-conformance.ts): how a store gives keys and places: its speed-ups, integer keys (per parent too), records with no key, the key of a record, and a collection cleared back to new.
 */
import { describe, expect, it } from 'vitest';
import { isIntegerKey } from '../../openapi/operations/collection.js';
import type { ConformanceSuite } from './store-under-test.js';
import { integerKeyed, inTransaction, keyed, keyFor, listed, nested, on, recordFor, scopeFor, subjects } from './subjects.js';

/** Declares the checks of this topic (inside the suite's `describe('the store')`). */
export function describeKeysAndPlaces(suite: ConformanceSuite): void {
      it('offers speed-ups, where it offers them, that agree with what they stand for', async () => {
        for (const { document, collection, label } of await subjects((c) => c.indexed.length > 0)) {
          const store = await suite.fresh(document);
          const properties = collection.indexed.filter((p) => p !== collection.keyProperty);
          const valueOf = (i: number) => ['x', 'y', 'z'][i % 3];
          await on(store, collection.name, (records) => {
            for (let i = 1; i <= 9; i++) records.put(recordFor(collection, keyFor(collection, 10 - i), Object.fromEntries(properties.map((p) => [p, valueOf(i)]))));
          });
          const versions: unknown[] = [];
          const agree = (step: string) =>
            on(store, collection.name, (records) => {
              versions.push(records.version);
              for (const record of records.all()) if (records.json) expect(JSON.parse(records.json(record)), `${label} ${step}: json()`).toEqual(record);
              if (!records.isIndexed || !records.keysWhere || !records.countWhere) return;
              for (const property of properties) {
                expect(records.isIndexed(property), `${label}: ${property} is a filter`).toBe(true);
                for (const values of [['x'], ['y', 'z'], ['none']]) {
                  const expected = listed(records).filter(([, record]) => values.includes(String(record[property]))).map(([key]) => key);
                  expect([...(records.keysWhere(property, values) ?? [])], `${label} ${step}: keysWhere(${property}, ${values})`).toEqual(expected);
                  expect(records.countWhere(property, values), `${label} ${step}: countWhere(${property}, ${values})`).toBe(expected.length);
                }
              }
            });
          await agree('as put');
          await on(store, collection.name, (records) => {
            const keys = [...records.records().keys()];
            for (const property of properties) records.update(keys[0], { [property]: 'z' });
            records.delete(keys[1]);
          });
          await agree('after an update and a delete');
          await on(store, collection.name, (records) => records.put(recordFor(collection, keyFor(collection, 1), Object.fromEntries(properties.map((p) => [p, 'x'])))));
          await agree('after a replace');
          // Every change moves the version, where there is one (readers cache what they computed from it).
          if (versions[0] !== undefined) expect(new Set(versions).size, `${label}: a version per state`).toBe(versions.length);
        }
      });

      it('allocates integer keys one past the largest ever stored, never one deleted, across scopes unless counted per parent', async () => {
        for (const { document, collection, label } of await subjects((c) => integerKeyed(c) && !c.keyPerParent)) {
          const store = await suite.fresh(document);
          const [a, b] = [scopeFor(collection, 1), scopeFor(collection, 2)];
          const allocate = (scope = a) => on(store, collection.name, (records) => records.allocateInteger(scope));
          expect(await allocate(), `${label}: the first key`).toBe(1);
          // An allocated key is taken even before a record holds it.
          expect(await allocate(), label).toBe(2);
          await on(store, collection.name, (records) => records.put(recordFor(collection, 10), a));
          expect(await allocate(), `${label}: past a key put`).toBe(11);
          await on(store, collection.name, (records) => records.put(recordFor(collection, 5), a));
          expect(await allocate(), `${label}: a smaller key put moves nothing back`).toBe(12);
          await on(store, collection.name, (records) => {
            records.put(recordFor(collection, 12), a);
            records.delete(12, a);
            records.delete(10, a);
          });
          expect(await allocate(), `${label}: deleted keys are not given again`).toBe(13);
          if (nested(collection)) {
            // Keys that are not counted per parent are one sequence for every scope (a comment's global id).
            await on(store, collection.name, (records) => records.put(recordFor(collection, 40), b));
            expect(await allocate(a), `${label}: a key put in another scope`).toBe(41);
          }
        }
      });

      it('counts keys per parent: from 1 in each scope, never again after a delete, past a key put, from 1 again once the scope is dropped', async () => {
        for (const { document, collection, label } of await subjects((c) => Boolean(c.keyPerParent))) {
          const store = await suite.fresh(document);
          const [a, b, c] = [scopeFor(collection, 1), scopeFor(collection, 2), scopeFor(collection, 3)];
          const make = (scope: string) =>
            on(store, collection.name, (records) => {
              const key = records.allocateInteger(scope);
              records.put(recordFor(collection, key), scope);
              return key;
            });
          expect([await make(a), await make(a), await make(b), await make(a)], label).toEqual([1, 2, 1, 3]);
          await on(store, collection.name, (records) => records.delete(3, a));
          expect(await make(a), `${label}: a deleted number is not given again`).toBe(4);
          await on(store, collection.name, (records) => records.put(recordFor(collection, 10), b));
          expect(await make(b), `${label}: past a key put in the scope`).toBe(11);
          expect(await make(c), `${label}: another scope is not moved by it`).toBe(1);
          // Every record of a scope deleted: its numbers are still taken.
          await on(store, collection.name, (records) => {
            records.delete(1, c);
          });
          expect(await make(c), `${label}: a scope emptied by deletes`).toBe(2);
          // The parent gone (its scope dropped): a new one under the same key counts from 1.
          await on(store, collection.name, (records) => records.dropScope(a));
          expect(await make(a), `${label}: a dropped scope`).toBe(1);
          expect(await make(b), `${label}: the other scopes go on`).toBe(12);
        }
      });

      it('keeps records with no key in order, twins included, each under its place in its scope', async () => {
        for (const { document, collection, label } of await subjects((c) => Boolean(c.keyless))) {
          const store = await suite.fresh(document);
          const scope = scopeFor(collection, 1);
          const twin = { message: 'same', at: '2031-01-01T00:00:00Z' };
          await on(store, collection.name, (records) => {
            records.put({ ...twin }, scope);
            records.put({ ...twin }, scope);
          });
          await on(store, collection.name, (records) => records.put({ message: 'other' }, scope));
          await on(store, collection.name, (records) => {
            // Numbered by their place: 1, 2, 3 in a scope that had none.
            expect(listed(records, scope), label).toEqual([
              ['1', twin],
              ['2', twin],
              ['3', { message: 'other' }],
            ]);
            expect(records.size, label).toBe(3);
            // Where a store says what key a record is stored under, it is the record's place.
            if (records.keyOf) for (const [key, record] of records.records(scope)) expect(records.keyOf(record), label).toBe(key);
            expect(records.delete('2', scope), label).toBe(true);
          });
          await on(store, collection.name, (records) => records.put({ ...twin }, scope));
          await on(store, collection.name, (records) => {
            const after = listed(records, scope);
            expect(after.map(([, record]) => record), `${label}: a record put after a delete goes last`).toEqual([twin, { message: 'other' }, twin]);
            expect(new Set(after.map(([key]) => key)).size, `${label}: places stay distinct`).toBe(3);
            expect(records.export().scopes[scope], label).toEqual([twin, { message: 'other' }, twin]);
          });
        }
      });

      it("says a keyed record's key is its key property, where it says so at all", async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await suite.fresh(document);
          await on(store, collection.name, (records) => {
            const record = records.put(recordFor(collection, keyFor(collection, 4)), scopeFor(collection, 1));
            if (records.keyOf) expect(records.keyOf(record), label).toEqual(keyFor(collection, 4));
          });
        }
      });

      it('clears a collection back to new: no records, no scopes, keys counted from 1 again', async () => {
        for (const { document, collection, label } of await subjects(() => true)) {
          const store = await suite.fresh(document);
          const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
          await on(store, collection.name, (records) => {
            for (const scope of scopes) for (const i of [3, 7]) records.put(recordFor(collection, keyFor(collection, i), { i }), scope);
            if (isIntegerKey(collection)) records.allocateInteger(scopes[0]);
          });
          await on(store, collection.name, (records) => records.clear());
          await on(store, collection.name, (records) => {
            expect([records.size, records.scopes(), [...records.all()]], label).toEqual([0, [], []]);
            for (const scope of scopes) expect(records.records(scope).size, label).toBe(0);
            if (integerKeyed(collection)) expect(records.allocateInteger(scopes[0]), label).toBe(1);
          });
          expect((await inTransaction(store, () => store.counts()))[collection.name], label).toBe(0);
        }
      });

}
