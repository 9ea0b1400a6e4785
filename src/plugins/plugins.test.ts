/**
 * The plugins the CLI and the library know: DEFAULT_PLUGINS (on unless replaced) and PLUGINS (by
 * name, for --plugin). The Petstore's, as a mock and a suite see it: its mock part serves only a
 * Petstore-shaped document and registers nothing for another; its contract part is loaded when a
 * run asks for it (the mock's imports never reach it) and is the suite's part behind the seal.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContractParts } from '../contract/plugin.js';
import { loadDocument, type LoadedDocument } from '../openapi/document/load-document.js';
import type { OpenAPIDocument } from '../openapi/document/openapi.js';
import { buildOperations } from '../openapi/operations/build-operations.js';
import { inferCollections } from '../openapi/operations/infer-collections.js';
import type { DocumentShape, MockParts } from '../mock/registries/extension.js';
import { RuleRegistry } from '../mock/registries/rules.js';
import { bodyEncoders } from '../mock/respond/body-encoders.js';
import { preferDirectives } from '../mock/scenarios/read-scenario.js';
import { securitySchemeChecks } from '../mock/security/authenticate.js';
import { petstoreDocument, ROOT } from '../test-support/petstore.js';
import { bodyDecoders } from '../openapi/validation/body-decoders.js';
import { DEFAULT_PLUGINS, petstore, PLUGINS } from './index.js';
import { petstoreContract } from './petstore/contract.js';
import { PETSTORE_OPERATIONS } from './petstore/operations.js';
import { petstoreRules, petstoreSeedFixup } from './petstore/rules.js';

/** The built-in parts, as the mock makes them before any plugin runs. */
function builtInParts(): MockParts {
  return { securitySchemes: securitySchemeChecks(), preferDirectives: preferDirectives(), bodyDecoders: bodyDecoders(), bodyEncoders: bodyEncoders(), rules: new RuleRegistry(), seedHooks: [] };
}

/** What the parts hold: every registry's names, the hooked operations, the seed hooks. */
function contents(parts: MockParts) {
  const { securitySchemes, preferDirectives: directives, bodyDecoders: decoders, bodyEncoders: encoders, rules, seedHooks } = parts;
  return { securitySchemes: securitySchemes.names(), directives: directives.names(), decoders: decoders.names(), encoders: encoders.names(), rules: rules.operationIds(), seedHooks: [...seedHooks] };
}

/** What a plugin sees of a document, as buildMock shows it; `without` leaves out operations or collections by name. */
function shapeOf(document: LoadedDocument, without: { operations?: string[]; collections?: string[] } = {}): DocumentShape {
  const operations = buildOperations(document.api).filter((op) => !without.operations?.includes(op.id));
  const collections = inferCollections(operations).collections.filter((c) => !without.collections?.includes(c.name));
  return { api: document.api as OpenAPIDocument, operations, operationIds: new Set(operations.map((op) => op.id)), collections };
}

/** The modules `entry` loads when imported: its value imports and re-exports (type-only ones are erased), transitively, within src/. */
function loadedModules(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  const text = readFileSync(entry, 'utf8');
  for (const [, from, bare] of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;]*?\bfrom\s+'(\.[^']+)'|'(\.[^']+)')/gm)) {
    loadedModules(resolve(dirname(entry), (from ?? bare).replace(/\.js$/, '.ts')), seen);
  }
  return seen;
}

describe('DEFAULT_PLUGINS and PLUGINS', () => {
  it('turn the Petstore\'s plugin on by default, and know every plugin by its own name', () => {
    expect(DEFAULT_PLUGINS).toEqual([petstore]);
    expect(Object.keys(PLUGINS)).toEqual(['petstore']);
    for (const [name, plugin] of Object.entries(PLUGINS)) {
      expect(plugin.name).toBe(name); // --plugin NAME finds the plugin that calls itself NAME
      expect(plugin.description.length, name).toBeGreaterThan(0);
    }
    for (const plugin of DEFAULT_PLUGINS) expect(PLUGINS[plugin.name]).toBe(plugin);
  });
});

describe('the Petstore plugin', () => {
  it('serves the bundled document: the rules of its prose on their operations, and the seed\'s fix-up', async () => {
    const parts = builtInParts();
    const before = contents(parts);
    expect(petstore.mock!(parts, shapeOf(await petstoreDocument()))).toBe(true);
    const after = contents(parts);
    expect(after.rules.sort()).toEqual(Object.keys(petstoreRules).sort());
    for (const id of after.rules) expect(parts.rules.for(id), id).toBe(petstoreRules[id]); // registered once each
    expect(after.seedHooks).toEqual([petstoreSeedFixup]);
    // The built-in registries are left as they were.
    expect({ ...after, rules: [], seedHooks: [] }).toEqual({ ...before, rules: [], seedHooks: [] });
  });

  it('declines a document that is not Petstore-shaped, and registers nothing for it', async () => {
    const petstoreDoc = await petstoreDocument();
    const shapes: Array<[string, DocumentShape]> = [
      ['the Notes API', shapeOf(await loadDocument(`${ROOT}test/documents/notes-api.yaml`))],
      // Every operation the rules involve is needed, and every collection they keep.
      ['the Petstore without deleteOrder', shapeOf(petstoreDoc, { operations: ['deleteOrder'] })],
      ['the Petstore without getInventoryItem', shapeOf(petstoreDoc, { operations: ['getInventoryItem'] })],
      ['the Petstore without its inventory collection', shapeOf(petstoreDoc, { collections: ['inventory'] })],
    ];
    for (const [label, shape] of shapes) {
      const parts = builtInParts();
      const before = contents(parts);
      expect(petstore.mock!(parts, shape), label).toBe(false);
      expect(contents(parts), label).toEqual(before);
    }
    // The whole Petstore has every operation the plugin names.
    const ids = shapeOf(petstoreDoc).operationIds;
    expect(PETSTORE_OPERATIONS.filter((id) => !ids.has(id))).toEqual([]);
  });

  it('loads its contract part when asked: the suite\'s part behind the seal, with the checks and the phase of its prose', async () => {
    expect(petstore.contract).toBeTypeOf('function');
    const sealed = await petstore.contract!();
    expect(sealed).toBe(petstoreContract); // the seal is a type: the part itself comes through
    expect(Object.keys(petstoreContract.checks ?? {})).toEqual(expect.arrayContaining(['referential_integrity', 'state_transitions']));
    expect(petstoreContract.phases).toHaveLength(1);
    expect(await loadContractParts([petstore, { name: 'bare', description: 'no contract part' }])).toEqual([
      { name: 'petstore', part: petstoreContract },
      { name: 'bare', part: {} },
    ]);
  });

  it('is imported without its contract part: only its dynamic import reaches the suite\'s checks', () => {
    const loaded = loadedModules(`${ROOT}src/plugins/index.ts`);
    expect(loaded).toContain(`${ROOT}src/plugins/petstore/rules.ts`); // the walk follows the imports
    expect(loaded).not.toContain(`${ROOT}src/plugins/petstore/contract.ts`);
    expect([...loaded].filter((path) => path.includes('/src/contract/'))).toEqual([`${ROOT}src/contract/plugin.ts`]); // the seal alone
    expect(readFileSync(`${ROOT}src/plugins/petstore/index.ts`, 'utf8')).toContain("import('./contract.js')");
  });
});
