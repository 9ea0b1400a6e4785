/**
 * Part of the store conformance suite (../store-conformance.ts): what a store keeps of the records put in it: by key, in their scope, in list order, with any text and keys of any length, found by value.
 */
import { describe, expect, it } from 'vitest';
import { StateBudget } from '../../state/budget.js';
import type { StateStore } from '../../state/state-store.js';
import type { ConformanceSuite } from './store-under-test.js';
import { documentCollections, type DocumentName, DOCUMENTS, integerKeyed, inTransaction, keyed, keyFor, listed, LONG_3K, LONG_TEXTS, nested, on, recordFor, scopeFor, subjects, TEXTS, unordered, VALUES } from './subjects.js';

/** Declares the checks of this topic (inside the suite's `describe('the store')`). */
export function describeRecordsByKey(suite: ConformanceSuite): void {
      it("has the document's collections, and only those", async () => {
        for (const document of Object.keys(DOCUMENTS) as DocumentName[]) {
          const names = (await documentCollections(document)).map((c) => c.name);
          const store = await suite.fresh(document);
          await inTransaction(store, () => {
            for (const name of names) {
              expect(store.has(name), `${document} ${name}`).toBe(true);
              expect(store.collection(name).collection.name).toBe(name);
            }
            expect(store.has('no-such-collection')).toBe(false);
            expect(() => store.collection('no-such-collection')).toThrow();
            // A fresh store is empty: every collection counted, at 0, and exported with no records.
            expect(store.counts()).toEqual(Object.fromEntries(names.map((name) => [name, 0])));
            const exported = store.export();
            expect(Object.keys(exported).sort()).toEqual([...names].sort());
            for (const name of names) expect(Object.values(exported[name].scopes).flat(), `${document} ${name}`).toEqual([]);
          });
        }
      });

      it('puts, gets, replaces, updates and deletes records by key, in their scope only', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await suite.fresh(document);
          const scope = scopeFor(collection, 1);
          const other = scopeFor(collection, 2);
          const [k1, k2, k3] = [keyFor(collection, 1), keyFor(collection, 2), keyFor(collection, 3)];
          await on(store, collection.name, (records) => {
            const given = recordFor(collection, k1, { title: 'one', ...VALUES });
            expect(records.put(given, scope), label).toEqual(given);
            records.put(recordFor(collection, k2, { title: 'two' }), scope);
            records.put(recordFor(collection, k3, { title: 'three' }), scope);
          });
          await on(store, collection.name, (records) => {
            expect(records.get(k1, scope), label).toEqual(recordFor(collection, k1, { title: 'one', ...VALUES }));
            // Keys are matched by their text, as the map of a scope holds them (a path's parameters and scopes are text).
            expect(records.get(String(k2), scope), label).toEqual(recordFor(collection, k2, { title: 'two' }));
            expect(records.get(keyFor(collection, 9), scope), label).toBeUndefined();
            if (nested(collection)) expect(records.get(k1, other), `${label}: another scope`).toBeUndefined();
            expect(records.size, label).toBe(3);
          });
          // The same key again replaces the record, in its place in the list.
          await on(store, collection.name, (records) => records.put(recordFor(collection, k2, { title: 'TWO' }), scope));
          await on(store, collection.name, (records) => {
            expect(listed(records, scope), label).toEqual([
              [String(k1), recordFor(collection, k1, { title: 'one', ...VALUES })],
              [String(k2), recordFor(collection, k2, { title: 'TWO' })],
              [String(k3), recordFor(collection, k3, { title: 'three' })],
            ]);
            expect(records.size, label).toBe(3);
          });
          // An update changes the fields it names, keeps the others, and changes the record in place.
          await on(store, collection.name, (records) => {
            const before = records.get(k3, scope)!;
            const updated = records.update(k3, { title: 'THREE', added: [1] }, scope);
            expect(updated, label).toEqual(recordFor(collection, k3, { title: 'THREE', added: [1] }));
            expect(before, `${label}: the record read before the update, in the same transaction`).toEqual(updated);
            expect(records.update(keyFor(collection, 9), { title: 'nobody' }, scope), label).toBeUndefined();
            if (nested(collection)) expect(records.update(k3, { title: 'elsewhere' }, other), label).toBeUndefined();
          });
          await on(store, collection.name, (records) => {
            expect(records.get(k3, scope), label).toEqual(recordFor(collection, k3, { title: 'THREE', added: [1] }));
            expect(records.get(keyFor(collection, 9), scope), `${label}: an update of nothing makes nothing`).toBeUndefined();
          });
          await on(store, collection.name, (records) => {
            if (nested(collection)) expect(records.delete(k1, other), `${label}: delete in another scope`).toBe(false);
            expect(records.delete(k1, scope), label).toBe(true);
            expect(records.delete(k1, scope), `${label}: deleted twice`).toBe(false);
          });
          await on(store, collection.name, (records) => {
            expect(records.get(k1, scope), label).toBeUndefined();
            expect([records.size, listed(records, scope).map(([key]) => key)], label).toEqual([2, [String(k2), String(k3)]]);
          });
        }
      });

      it('keeps any text a string holds, in keys, scopes and values, as given (NUL, lone surrogates, U+0001...), read back the same by another store of the same state', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await suite.fresh(document);
          const scopes = nested(collection) ? TEXTS : [''];
          const keyOf = (i: number) => (integerKeyed(collection) ? i + 1 : TEXTS[i]);
          const given = (i: number, scope: string) => recordFor(collection, keyOf(i), { text: TEXTS[i], scope, [TEXTS[i]]: [TEXTS[i]] });
          await on(store, collection.name, (records) => {
            for (const scope of scopes) TEXTS.forEach((_, i) => records.put(given(i, scope), scope));
          });
          // Replaced and deleted by those keys, in those scopes.
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              records.put({ ...given(0, scope), replaced: true }, scope);
              expect(records.delete(keyOf(1), scope), `${label} ${JSON.stringify(scope)}`).toBe(true);
            }
          });
          const expected = (scope: string) => TEXTS.flatMap((_, i) => (i === 1 ? [] : [[String(keyOf(i)), i === 0 ? { ...given(0, scope), replaced: true } : given(i, scope)]]));
          for (const scope of scopes) {
            expect(await on(store, collection.name, (records) => listed(records, scope)), `${label} ${JSON.stringify(scope)}`).toEqual(expected(scope));
            expect(await on(store, collection.name, (records) => records.get(keyOf(2), scope)), `${label} ${JSON.stringify(scope)}`).toEqual(given(2, scope));
          }
          if (!suite.under.reopen) continue;
          const collections = await documentCollections(document);
          const other = await suite.under.reopen(store, collections, new StateBudget({ maxRecords: Infinity, maxBytes: Infinity }));
          await inTransaction(other, () => undefined); // opened, and caught up
          for (const scope of scopes) {
            expect(await on(other, collection.name, (records) => listed(records, scope)), `${label} ${JSON.stringify(scope)}, read by another store`).toEqual(expected(scope));
          }
          const exported = await inTransaction(store, () => store.export());
          expect(await inTransaction(other, () => other.export()), `${label}, read by another store`).toEqual(exported);
        }
      });

      it('keeps keys and scopes of any length (1 KiB to 60,000 bytes, multi-byte, NUL): put, replaced, deleted, dropped with their parent, counted per parent, read back the same by other stores of the same state', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const unbounded = () => new StateBudget({ maxRecords: Infinity, maxBytes: Infinity });
          const collections = await documentCollections(document);
          const store = suite.under.make(collections, unbounded());
          await inTransaction(store, () => undefined);
          // Where the state is kept outside the process: one store opened before the writes (it follows them), one after (it loads them).
          const follower = suite.under.reopen ? await suite.under.reopen(store, collections, unbounded()) : undefined;
          if (follower) await inTransaction(follower, () => undefined);
          const scopes = nested(collection) ? [...LONG_TEXTS, scopeFor(collection, 1)] : [''];
          const keys = integerKeyed(collection) ? LONG_TEXTS.map((_, i) => i + 1).concat(LONG_TEXTS.length + 1) : [...LONG_TEXTS, String(keyFor(collection, 1))];
          // The 3,000-byte scope: its records dropped, as when their parent is deleted.
          const dropped = nested(collection) ? LONG_3K : undefined;
          const given = (i: number, scope: string) => recordFor(collection, keys[i], { i, long: scope.length });
          await on(store, collection.name, (records) => {
            for (const scope of scopes) keys.forEach((_, i) => records.put(given(i, scope), scope));
          });
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              records.put({ ...given(0, scope), replaced: true }, scope);
              expect(records.delete(keys[1], scope), `${label}: a delete by a long key`).toBe(true);
            }
          });
          if (dropped !== undefined) await on(store, collection.name, (records) => records.dropScope(dropped));
          const expected = (scope: string) => (scope === dropped ? [] : keys.flatMap((key, i) => (i === 1 ? [] : [[String(key), i === 0 ? { ...given(0, scope), replaced: true } : given(i, scope)]])));
          const late = suite.under.reopen ? await suite.under.reopen(store, collections, unbounded()) : undefined;
          const readers = [
            ['the store that wrote', store],
            ['a store that followed the writes', follower],
            ['a store opened after them', late],
          ].filter((reader): reader is [string, StateStore] => reader[1] !== undefined);
          for (const [who, reader] of readers) {
            const where = (scope: string) => `${label}, ${who}: scope of ${scope.length} characters`;
            for (const scope of scopes) {
              expect(await on(reader, collection.name, (records) => listed(records, scope)), where(scope)).toEqual(expected(scope));
              expect(await on(reader, collection.name, (records) => [records.get(keys[4], scope), records.get(keys[1], scope)]), where(scope)).toEqual([scope === dropped ? undefined : given(4, scope), undefined]);
            }
            if (nested(collection)) expect(await on(reader, collection.name, (records) => records.scopes().sort()), `${label}, ${who}`).toEqual(scopes.filter((scope) => scope !== dropped).sort());
            expect(await inTransaction(reader, () => reader.export()), `${label}, ${who}`).toEqual(await inTransaction(store, () => store.export()));
          }
          if (!collection.keyPerParent) continue;
          // Each reader in turn creates a record under the next number of every scope: past the keys put, from 1 again in the dropped one.
          for (const [turn, [who, reader]] of readers.entries()) {
            const numbers = await on(reader, collection.name, (records) =>
              scopes.map((scope) => {
                const number = records.allocateInteger(scope);
                records.put(recordFor(collection, number), scope);
                return number;
              }),
            );
            expect(numbers, `${label}, ${who}: the next numbers`).toEqual(scopes.map((scope) => (scope === dropped ? 1 : keys.length + 1) + turn));
          }
        }
      });

      it('lists a scope in the order records were first put: a replaced one keeps its place, one deleted and put again goes last', async () => {
        for (const { document, collection, label } of await subjects(keyed)) {
          const store = await suite.fresh(document);
          const scope = scopeFor(collection, 1);
          // Keys out of order: the list is in the order they came, not sorted.
          const keys = [5, 2, 9, 1].map((i) => keyFor(collection, i));
          await on(store, collection.name, (records) => {
            for (const key of keys) records.put(recordFor(collection, key, { n: String(key) }), scope);
          });
          await on(store, collection.name, (records) => records.put(recordFor(collection, keys[1], { n: 'replaced' }), scope));
          await on(store, collection.name, (records) => records.delete(keys[0], scope));
          await on(store, collection.name, (records) => records.put(recordFor(collection, keys[0], { n: 'again' }), scope));
          await on(store, collection.name, (records) => {
            expect(listed(records, scope), label).toEqual([
              [String(keys[1]), recordFor(collection, keys[1], { n: 'replaced' })],
              [String(keys[2]), recordFor(collection, keys[2], { n: String(keys[2]) })],
              [String(keys[3]), recordFor(collection, keys[3], { n: String(keys[3]) })],
              [String(keys[0]), recordFor(collection, keys[0], { n: 'again' })],
            ]);
          });
        }
      });

      it('keeps each scope apart: all(), size and scopes() see every scope, and a scope emptied leaves scopes()', async () => {
        for (const { document, collection, label } of await subjects((c) => keyed(c) && nested(c))) {
          const store = await suite.fresh(document);
          const [a, b, c] = [scopeFor(collection, 1), scopeFor(collection, 2), scopeFor(collection, 3)];
          await on(store, collection.name, (records) => {
            // The same keys in two scopes are two records.
            for (const scope of [a, b]) for (const i of [1, 2]) records.put(recordFor(collection, keyFor(collection, i), { scope, i }), scope);
            records.put(recordFor(collection, keyFor(collection, 1), { scope: c, i: 1 }), c);
          });
          await on(store, collection.name, (records) => {
            expect(records.size, label).toBe(5);
            expect([...records.scopes()].sort(), label).toEqual([a, b, c].sort());
            expect(unordered(records.all()), label).toEqual(unordered([a, b, c].flatMap((scope) => [...records.records(scope).values()])));
            expect([...records.records(b).values()].map((r) => r.scope), label).toEqual([b, b]);
            expect(records.records(scopeFor(collection, 7)).size, `${label}: a scope never used`).toBe(0);
            records.delete(keyFor(collection, 1), c);
          });
          await on(store, collection.name, (records) => {
            expect([...records.scopes()].sort(), label).toEqual([a, b].sort());
            expect(records.size, label).toBe(4);
          });
        }
      });

      it('drops a scope whole, and no other', async () => {
        for (const { document, collection, label } of await subjects(nested)) {
          const store = await suite.fresh(document);
          const [a, b] = [scopeFor(collection, 1), scopeFor(collection, 2)];
          await on(store, collection.name, (records) => {
            for (const scope of [a, b]) for (const i of [1, 2, 3]) records.put(recordFor(collection, keyFor(collection, i), { scope, i }), scope);
          });
          await on(store, collection.name, (records) => records.dropScope(a));
          await on(store, collection.name, (records) => {
            expect(records.records(a).size, label).toBe(0);
            expect(records.scopes(), label).toEqual([b]);
            expect(records.size, label).toBe(3);
            expect(unordered(records.all()), label).toEqual(unordered([1, 2, 3].map((i) => recordFor(collection, keyFor(collection, i), { scope: b, i }))));
            if (keyed(collection)) expect(records.get(keyFor(collection, 1), a), label).toBeUndefined();
          });
          // The dropped scope takes records again.
          await on(store, collection.name, (records) => records.put(recordFor(collection, keyFor(collection, 1), { scope: a, i: 1 }), a));
          await on(store, collection.name, (records) => expect([records.records(a).size, records.size], label).toEqual([1, 4]));
        }
      });

      it('finds the records whose property equals a value, in every scope, after any change', async () => {
        for (const { document, collection, label } of await subjects(() => true)) {
          const store = await suite.fresh(document);
          const scopes = nested(collection) ? [scopeFor(collection, 1), scopeFor(collection, 2)] : [''];
          // The properties lists filter on (the in-memory store indexes them), and others.
          const properties = [...new Set([...collection.indexed, 'colour', 'weight', 'open'])].filter((p) => p !== collection.keyProperty);
          const valueOf = (property: string, i: number): unknown => (property === 'colour' ? ['red', 'blue'][i % 2] : property === 'open' ? i % 3 === 0 : (i % 3) + 1);
          let n = 0;
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              for (let i = 0; i < 6; i++) {
                n++;
                records.put(recordFor(collection, keyFor(collection, n), Object.fromEntries(properties.map((p) => [p, valueOf(p, i)]))), scope);
              }
            }
          });
          const check = (step: string) =>
            on(store, collection.name, (records) => {
              for (const property of properties) {
                for (const value of new Set([...records.all()].map((record) => record[property]))) {
                  const expected = [...records.all()].filter((record) => record[property] === value);
                  expect(unordered(records.where(property, value)), `${label} ${step}: where(${property}, ${JSON.stringify(value)})`).toEqual(unordered(expected));
                }
                expect(records.where(property, 'no such value'), `${label} ${step}: where(${property}, none)`).toEqual([]);
              }
            });
          await check('as put');
          // Values moved, records deleted and put again: what was found before must not be found still.
          await on(store, collection.name, (records) => {
            for (const scope of scopes) {
              const keys = [...records.records(scope).keys()];
              const record = (i: number) => records.records(scope).get(keys[i])!;
              for (const property of properties) records.update(keys[0], { [property]: valueOf(property, 1) }, scope);
              const gone = { ...record(2) };
              records.delete(keys[2], scope);
              if (!collection.keyless) records.put({ ...gone, ...Object.fromEntries(properties.map((p) => [p, valueOf(p, 0)])) }, scope);
              records.delete(keys[3], scope);
            }
          });
          await check('after changes');
        }
      });

}
