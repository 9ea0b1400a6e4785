/**
 * The README and the pages of docs/ link to each other: every relative link and image of each
 * leads to a file of the checkout, and every `#anchor` to a heading of the page it names (GitHub's
 * anchors, see test-support/markdown-links.ts). The README links every page of docs/. A link to
 * this project's repository from the document (the deprecated operation's `externalDocs`, which its
 * `Link` header and its 410 name) leads to a file and a heading of the checkout too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationPages, headingAnchors, relativeLinks } from './test-support/markdown-links.js';
import { ROOT } from './test-support/petstore.js';

const PAGES = documentationPages(ROOT);
const text = (page: string) => readFileSync(join(ROOT, page), 'utf8');

describe('the links of the README and of docs/', () => {
  for (const page of PAGES) {
    it(`${page}: every relative link leads to a file, and its anchor to a heading there`, () => {
      const broken: string[] = [];
      for (const { target, line } of relativeLinks(text(page))) {
        const [path, anchor] = target.split('#');
        const file = path ? join(dirname(join(ROOT, page)), decodeURIComponent(path)) : join(ROOT, page);
        const where = `${page}:${line} ${target}`;
        if (!existsSync(file)) broken.push(`${where}: no file ${relative(ROOT, file)}`);
        else if (anchor !== undefined && (!file.endsWith('.md') || !headingAnchors(readFileSync(file, 'utf8')).has(anchor))) broken.push(`${where}: no heading #${anchor} in ${relative(ROOT, file)}`);
      }
      expect(broken).toEqual([]);
    });
  }

  it('every file of the checkout they name in code (`src/...`, `test/...`, `bench/...`) exists', () => {
    const missing: string[] = [];
    for (const page of PAGES) {
      for (const [, path] of text(page).matchAll(/`((?:src|test|bench|scripts|spec|fixtures)\/[\w./-]+\.\w+)`/g)) {
        if (!existsSync(join(ROOT, path))) missing.push(`${page}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every link of the document to this project's repository leads to a file of the checkout, and its anchor to a heading there", () => {
    const repository = 'https://github.com/petstore-mock-kit/petstore-mock-kit';
    const document = readFileSync(join(ROOT, 'spec/openapi.yaml'), 'utf8');
    const links = [...document.matchAll(new RegExp(`${repository.replace(/[.]/g, '\\.')}([^\\s'"]*?)\\.?(?=[\\s'"]|$)`, 'gm'))].map((m) => m[1]);
    expect(links.some((link) => link.includes('#')), 'the deprecated operation links its migration notes').toBe(true);
    const broken: string[] = [];
    for (const link of links) {
      const [path, anchor] = link.split('#');
      // The repository's page is its README; a file is under /blob/<branch>/.
      const file = path === '' || path === '/' ? 'README.md' : /^\/blob\/[^/]+\/(.+)$/.exec(path)?.[1];
      if (!file || !existsSync(join(ROOT, file))) broken.push(`${link}: no file ${file ?? path}`);
      else if (anchor !== undefined && !headingAnchors(text(file)).has(anchor)) broken.push(`${link}: no heading #${anchor} in ${file}`);
    }
    expect(broken).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const linked = new Set(relativeLinks(text('README.md')).map(({ target }) => target.split('#')[0]));
    expect(PAGES.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });
});
