/**
 * Part of the store conformance suite (../store-conformance.ts): a store as a whole: exported and imported, counted, its transactions one after another, two stores apart, and its records counted in the budget it was given.
 */
import { describe, expect, it } from 'vitest';
import { StateBudget } from '../../state/budget.js';
import type { ConformanceSuite } from './store-under-test.js';
import { documentCollections, type DocumentName, DOCUMENTS, held, integerKeyed, inTransaction, keyed, keyFor, listed, nested, on, recordFor, scopeFor, subjects, VALUES, withoutEmptyScopes } from './subjects.js';

/** Declares the checks of this topic (inside the suite's `describe('the store')`). */
export function describeSnapshotsAndTransactions(suite: ConformanceSuite): void {
      it('exports what import restores: records in list order, values as given, the key sequences (per parent too)', async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const collections = await documentCollections(document);
          const store = await suite.fresh(document);
          // Every collection filled: two scopes of the nested ones, keys past the ones still held
          // (the last of each scope deleted), sequences per parent moved past their records.
          await inTransaction(store, () => {
            for (const collection of collections) {
              const records = store.collection(collection.name);
              const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
              for (const [s, scope] of scopes.entries()) {
                for (let i = 1; i <= 3; i++) {
                  const key = integerKeyed(collection) ? records.allocateInteger(scope) : keyFor(collection, 10 * s + i);
                  records.put(recordFor(collection, key, { i, ...VALUES }), scope);
                }
                const last = [...records.records(scope).keys()].at(-1)!;
                records.delete(collection.keyless ? last : records.records(scope).get(last)![collection.keyProperty], scope);
              }
            }
          });
          const exported = await inTransaction(store, () => store.export());
          // Plain JSON, and a copy: changing it changes nothing stored.
          expect(JSON.parse(JSON.stringify(exported)), document).toEqual(exported);
          for (const collection of collections.filter(keyed)) {
            const [scope, records] = Object.entries(exported[collection.name].scopes).find(([, list]) => list.length > 0)!;
            const key = records[0][collection.keyProperty];
            records[0].i = 'changed';
            expect((await on(store, collection.name, (state) => state.get(key, scope)))?.i, `${document} ${collection.name}`).toBe(1);
            records[0].i = 1;
          }
          for (const collection of collections.filter((c) => c.keyPerParent)) {
            expect(exported[collection.name].sequences, `${document} ${collection.name}: the sequences per parent`).toEqual({ [scopeFor(collection, 1)]: 4, [scopeFor(collection, 2)]: 4 });
          }

          // Imported into another store (over records it held), then exported again: the same.
          const copy = await suite.fresh(document);
          await inTransaction(copy, () => {
            for (const collection of collections) copy.collection(collection.name).put(recordFor(collection, keyFor(collection, 99), { stale: true }), scopeFor(collection, 1));
          });
          await inTransaction(copy, () => {
            for (const collection of collections) copy.collection(collection.name).import(structuredClone(exported[collection.name]));
          });
          const again = await inTransaction(copy, () => copy.export());
          for (const collection of collections) {
            const label = `${document} ${collection.name}`;
            expect(withoutEmptyScopes(again[collection.name]), label).toEqual(withoutEmptyScopes(exported[collection.name]));
            for (const scope of Object.keys(exported[collection.name].scopes)) {
              expect(await on(copy, collection.name, (records) => listed(records, scope)), `${label} ${scope}`).toEqual(await on(store, collection.name, (records) => listed(records, scope)));
            }
          }
          expect(await inTransaction(copy, () => copy.counts()), document).toEqual(await inTransaction(store, () => store.counts()));
          // Both go on with the same keys: deleted ones stay given, in each scope for keys counted per parent.
          for (const collection of collections.filter(integerKeyed)) {
            for (const scope of nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2), scopeFor(collection, 3)] : ['']) {
              const next = await on(store, collection.name, (records) => records.allocateInteger(scope));
              expect(await on(copy, collection.name, (records) => records.allocateInteger(scope)), `${document} ${collection.name} ${scope}`).toBe(next);
            }
          }
        }
      });

      it('imports a snapshot whose nextInteger is behind its records: keys go on past the records', async () => {
        for (const { document, collection, label } of await subjects((c) => integerKeyed(c) && !c.keyPerParent)) {
          const store = await suite.fresh(document);
          const scope = scopeFor(collection, 1);
          await on(store, collection.name, (records) => records.import({ nextInteger: 1, scopes: { [scope]: [recordFor(collection, 7), recordFor(collection, 3)] } }));
          expect(await on(store, collection.name, (records) => [listed(records, scope).map(([key]) => key), records.allocateInteger(scope)]), label).toEqual([['7', '3'], 8]);
          await on(store, collection.name, (records) => records.import({ nextInteger: 50, scopes: {} }));
          expect(await on(store, collection.name, (records) => [records.size, records.allocateInteger(scope)]), `${label}: a nextInteger ahead`).toEqual([0, 50]);
        }
        for (const { document, collection, label } of await subjects((c) => Boolean(c.keyPerParent))) {
          const store = await suite.fresh(document);
          const [a, b] = [scopeFor(collection, 1), scopeFor(collection, 2)];
          // Scope a: its sequence ahead of its records; scope b: records, and no sequence said.
          await on(store, collection.name, (records) => records.import({ nextInteger: 1, scopes: { [a]: [recordFor(collection, 2)], [b]: [recordFor(collection, 5)] }, sequences: { [a]: 9 } }));
          expect(await on(store, collection.name, (records) => [records.allocateInteger(a), records.allocateInteger(b), records.allocateInteger(scopeFor(collection, 3))]), label).toEqual([9, 6, 1]);
        }
      });

      it('counts the records of every collection, every scope included', async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const collections = await documentCollections(document);
          const store = await suite.fresh(document);
          await inTransaction(store, () => {
            for (const [n, collection] of collections.entries()) {
              const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
              for (const scope of scopes) for (let i = 1; i <= n + 1; i++) store.collection(collection.name).put(recordFor(collection, keyFor(collection, i), { i }), scope);
            }
          });
          const counts = await inTransaction(store, () => store.counts());
          expect(counts, document).toEqual(Object.fromEntries(collections.map((c, n) => [c.name, (n + 1) * (nested(c) ? 2 : 1)])));
          expect(counts, document).toEqual(Object.fromEntries(await Promise.all(collections.map(async (c) => [c.name, await on(store, c.name, (records) => records.size)]))));
        }
      });

      it("runs a request's work in transact: its result given back, an exception thrown through, the store usable after", async () => {
        const store = await suite.fresh('petstore');
        const result = { answer: 42 };
        expect(await store.transact(() => result)).toBe(result);
        expect(await store.transact(() => undefined)).toBeUndefined();
        await on(store, 'pets', (pets) => pets.put({ id: 1, name: 'Rex' }));
        const failure = new Error('the work failed');
        await expect((async () => store.transact(() => { throw failure; }))()).rejects.toBe(failure);
        // A transaction that failed leaves the store to the next one (no lock kept), with what was stored before.
        expect(await on(store, 'pets', (pets) => pets.get(1))).toEqual({ id: 1, name: 'Rex' });
      });

      it('runs transactions started together one after another: none loses what another wrote, no key is given twice', async () => {
        const store = await suite.fresh('petstore');
        await on(store, 'pets', (pets) => pets.put({ id: 1, name: 'Counter', hits: 0 }));
        const many = 25;
        await Promise.all(
          Array.from({ length: many }, () =>
            on(store, 'pets', (pets) => {
              const hits = pets.get(1)!.hits as number;
              pets.update(1, { hits: hits + 1 });
            }),
          ),
        );
        expect((await on(store, 'pets', (pets) => pets.get(1)))?.hits).toBe(many);
        const keys = await Promise.all(
          Array.from({ length: many }, (_, i) =>
            on(store, 'pets', (pets) => {
              const id = pets.allocateInteger();
              pets.put({ id, name: `Pet ${i}` });
              return id;
            }),
          ),
        );
        expect(new Set(keys).size).toBe(many);
        expect(await on(store, 'pets', (pets) => pets.size)).toBe(many + 1);
      });

      it('keeps two stores it made apart (the shared state and a session)', async () => {
        const [one, two] = [await suite.fresh('numbered'), await suite.fresh('numbered')];
        await on(one, 'projects', (projects) => projects.put({ id: 1, name: 'One' }));
        await on(one, 'issues', (issues) => issues.put({ number: issues.allocateInteger('1'), title: 'First' }, '1'));
        expect(await inTransaction(two, () => two.counts())).toEqual({ projects: 0, issues: 0, comments: 0 });
        expect(await on(two, 'issues', (issues) => issues.allocateInteger('1'))).toBe(1);
        await on(two, 'projects', (projects) => projects.put({ id: 1, name: 'Two' }));
        expect(await on(one, 'projects', (projects) => projects.get(1))).toEqual({ id: 1, name: 'One' });
      });

      it('counts its records in the budget it was given, whatever changes them', async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const collections = await documentCollections(document);
          const budget = new StateBudget({ maxRecords: Infinity, maxBytes: Infinity });
          const store = await suite.fresh(document, budget);
          const agrees = async (step: string) => {
            expect(budget.records, `${document}: ${step}`).toBe(await held(store));
            expect(budget.bytes > 0, `${document}: ${step}, bytes counted while records are held`).toBe(budget.records > 0);
          };
          await inTransaction(store, () => {
            for (const collection of collections) {
              for (const scope of nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : ['']) {
                for (let i = 1; i <= 3; i++) store.collection(collection.name).put(recordFor(collection, keyFor(collection, i), { i, ...VALUES }), scope);
              }
            }
          });
          await agrees('put');
          const bytes = budget.bytes;
          await inTransaction(store, () => {
            for (const collection of collections.filter(keyed)) {
              const records = store.collection(collection.name);
              const scope = nested(collection) ? scopeFor(collection, 1) : '';
              records.put(recordFor(collection, keyFor(collection, 1), { i: 1, longer: 'x'.repeat(1000) }), scope);
              records.update(keyFor(collection, 2), { longer: 'y'.repeat(1000) }, scope);
            }
          });
          await agrees('replaced and updated');
          if (collections.some(keyed)) expect(budget.bytes, `${document}: longer records are counted longer`).toBeGreaterThan(bytes);
          await inTransaction(store, () => {
            for (const collection of collections) {
              const records = store.collection(collection.name);
              const scope = nested(collection) ? scopeFor(collection, 1) : '';
              records.delete(collection.keyless ? '3' : keyFor(collection, 3), scope);
              if (nested(collection)) records.dropScope(scopeFor(collection, 2));
            }
          });
          await agrees('deleted and dropped');
          const snapshot = await inTransaction(store, () => store.export());
          await inTransaction(store, () => {
            for (const collection of collections) store.collection(collection.name).clear();
          });
          await agrees('cleared');
          expect(budget.bytes, `${document}: cleared`).toBe(0);
          await inTransaction(store, () => {
            for (const collection of collections) store.collection(collection.name).import(snapshot[collection.name]);
          });
          await agrees('imported');
        }
      });

      it('is full at the bound on records or bytes of the budget it was given, shared with the stores of the same budget', async () => {
        const budget = new StateBudget({ maxRecords: 4 });
        const store = await suite.fresh('petstore', budget);
        await on(store, 'pets', (pets) => [1, 2, 3].map((id) => pets.put({ id, name: `Pet ${id}` })));
        expect(await inTransaction(store, () => store.full())).toBeUndefined();
        await on(store, 'categories', (categories) => categories.put({ id: 1, name: 'Dogs' }));
        expect(await inTransaction(store, () => store.full()), 'four records, the bound').toEqual(expect.any(String));
        await on(store, 'pets', (pets) => pets.delete(3));
        expect(await inTransaction(store, () => store.full()), 'room again after a delete').toBeUndefined();
        // A session's store counts in a part of the same budget: together they reach the bound.
        const session = await suite.fresh('petstore', budget.sessions.part());
        await on(session, 'orders', (orders) => orders.put({ id: 1, petId: 1, quantity: 1 }));
        expect([budget.records, await inTransaction(store, () => store.full()), await inTransaction(session, () => session.full())]).toEqual([4, expect.any(String), expect.any(String)]);
        await on(session, 'orders', (orders) => orders.clear());
        expect(await inTransaction(store, () => store.full())).toBeUndefined();

        const small = await suite.fresh('petstore', new StateBudget({ maxBytes: 4096 }));
        await on(small, 'pets', (pets) => pets.put({ id: 1, name: 'Rex' }));
        expect(await inTransaction(small, () => small.full())).toBeUndefined();
        await on(small, 'pets', (pets) => pets.put({ id: 2, name: 'Long', notes: 'x'.repeat(8192) }));
        expect(await inTransaction(small, () => small.full()), 'past the bound on bytes').toEqual(expect.any(String));
        await on(small, 'pets', (pets) => pets.update(2, { notes: '' }));
        expect(await inTransaction(small, () => small.full()), 'room again after the record shrank').toBeUndefined();
      });
}
