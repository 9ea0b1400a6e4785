/**
 * Documents that expand past a bound are refused at load, in one sentence naming the bound and
 * where it was passed: YAML alias bombs (by the parser's own alias count), `$ref`s that fan out (in
 * the document, or across the files it refers to), and objects given that share or contain
 * themselves. Documents just under the bounds load.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aliasBomb, documentAnswering, refFanOut } from '../../test-support/document-bombs.js';
import { DOCUMENT_BOUNDS } from './document-bounds.js';
import { DocumentLoadError, loadDocument } from './load-document.js';

const dir = mkdtempSync(join(tmpdir(), 'document-bounds-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function failure(source: string | object): Promise<string> {
  const error = await loadDocument(source).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(DocumentLoadError);
  const message = (error as Error).message;
  expect(message).not.toMatch(/\n/);
  return message;
}

/** The number a refusal says the expansion would hold. */
const held = (message: string) => Number(/would hold ([\d,]+) values/.exec(message)?.[1].replace(/,/g, ''));

describe('a YAML alias bomb', () => {
  it('is refused while it is read (the 576 bytes of nine anchors of nine), naming the bound and the alias that passed it', async () => {
    const text = aliasBomb(9);
    expect(text.length).toBeLessThan(700);
    const message = await failure(file('laughs.yaml', text));
    expect(message).toMatch(/laughs\.yaml is refused: its YAML aliases expand past the bound of 10,000 alias uses \(each counted with the aliases inside what it names\), at \*[a-i] \(\d+:\d+\)\.$/);
  });

  it('is refused when it expands only to half a million values', async () => {
    expect(await failure(file('six.yaml', aliasBomb(6)))).toMatch(/six\.yaml is refused: its YAML aliases expand past the bound of 10,000 alias uses .* at \*[a-f] \(1[2-7]:\d+\)\.$/);
  });

  it('is refused in a file the document refers to, named as that file', async () => {
    file('bomb.yaml', aliasBomb(6));
    const main = file('refers.json', JSON.stringify(documentAnswering({ $ref: 'bomb.yaml#/x-f' })));
    expect(await failure(main)).toMatch(/^.*bomb\.yaml is refused: its YAML aliases expand past the bound of 10,000 alias uses/);
  });

  it('refuses an alias inside the node it names, where the document would hold itself', async () => {
    const message = await failure(file('itself.yaml', `${aliasBomb(1)}x-z: &z {self: [*z]}\n`));
    expect(message).toMatch(/itself\.yaml is refused: the alias \*z \(13:17\) is inside the node it names, so the document would hold itself\.$/);
  });

  it('loads when its aliases keep under the bound (nine anchors of nine, four deep: 6,561 strings)', async () => {
    const { raw } = await loadDocument(file('four.yaml', aliasBomb(4)));
    expect(JSON.stringify(raw['x-d']).match(/"x"/g)).toHaveLength(9 ** 4);
  });
});

describe('$refs that fan out', () => {
  it('are refused at load (4.2 KB of JSON, ten schemas referring ten times to the next), naming the path and the bound', async () => {
    const text = refFanOut({ levels: 10, fan: 10 });
    expect(text.length).toBeLessThan(4300);
    const message = await failure(file('fan.json', text));
    expect(message).toMatch(/fan\.json is refused: #\/paths\/~1things, with its \$refs replaced by what they name, would hold [\d,]+ values, past the bound of 1,000,000 on what the mock walks at once\.$/);
    expect(held(message)).toBeGreaterThan(10 ** 9);
  });

  it('are refused when they name schemas that are not named ones (#/x-defs/L1), and when only a little past the bound', async () => {
    const message = await failure(file('defs.json', refFanOut({ levels: 7, fan: 10, under: 'x-defs' })));
    expect(message).toMatch(/defs\.json is refused: #\/paths\/~1things, with its \$refs replaced/);
    expect(held(message)).toBeGreaterThan(DOCUMENT_BOUNDS.expanded);
    expect(held(message)).toBeLessThan(10 * DOCUMENT_BOUNDS.expanded);
  });

  it('are refused in a component nothing uses', async () => {
    const fan = JSON.parse(refFanOut({ levels: 8 }));
    fan.paths['/things'].get.responses['200'].content['application/json'].schema = { type: 'string' };
    expect(await failure(file('unused.json', JSON.stringify(fan)))).toMatch(/unused\.json is refused: #\/components\/schemas\/L0, with its \$refs replaced/);
  });

  it('are refused once the files the document refers to are brought in', async () => {
    file('fan-out.json', refFanOut({ levels: 7, fan: 10 }));
    const main = file('across.json', JSON.stringify(documentAnswering({ $ref: 'fan-out.json#/components/schemas/L0' })));
    expect(await failure(main)).toMatch(/^.*across\.json is refused: #\/paths\/~1things, with its \$refs replaced by what they name, would hold [\d,]+ values, past the bound/);
  });

  it('load when they keep under the bound (six levels of ten: 100,000 strings)', async () => {
    const { api } = await loadDocument(file('under.json', refFanOut({ levels: 6, fan: 10, required: true })));
    const schemas = api.components!.schemas!;
    expect(schemas.L0.properties!.p9).toBe(schemas.L1);
  });
});

describe('a document given as an object', () => {
  /** Nine arrays of nine, `levels` deep, each level one array shared nine times. */
  const shared = (levels: number) => {
    let value: unknown[] = Array(9).fill('x');
    for (let level = 1; level < levels; level++) value = Array(9).fill(value);
    return value;
  };

  it('is refused when its shared objects would be written out past the bound', async () => {
    const message = await failure({ ...documentAnswering({ type: 'string' }), 'x-shared': shared(7) });
    expect(message).toBe('the document given is refused: as served (each YAML alias, or object given twice, written out in full where it is used) it would hold more than 2,000,000 values, the bound on a document, passed in #/x-shared.');
  });

  it('is refused when it contains itself: written out, it would never end', async () => {
    const document: Record<string, unknown> = documentAnswering({ type: 'string' });
    document['x-self'] = { document };
    expect(await failure(document)).toMatch(/^the document given is refused: as served .* it would hold more than 2,000,000 values, the bound on a document, passed in #\/x-self\.$/);
  });
});
