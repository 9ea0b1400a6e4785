/**
 * The relative links of a Markdown page and the anchors its headings make, so a test can check
 * that every link between the README and the pages of docs/ leads somewhere.
 *
 * Anchors follow GitHub's rules: the heading's text, lowercased, with inline code's backticks and
 * every other punctuation dropped (letters, digits, `_` and `-` stay), each space made a `-`; a
 * heading met again gets `-1`, `-2`... Links are read outside code blocks and code spans:
 * `[text](target)` and `![alt](target)`; a target with a scheme (`https:`, `mailto:`) is not relative.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The documentation's pages, relative to the checkout: the README, then every page of docs/ by name. */
export function documentationPages(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export interface MarkdownLink {
  /** The target as written: `docs/mock.md#flags`, `#bounded-state`, `images/docs-try-it.png`. */
  target: string;
  /** 1-based line of the page. */
  line: number;
}

/** The lines of a page outside fenced code blocks, with their 1-based numbers. */
function proseLines(markdown: string): Array<[string, number]> {
  const lines: Array<[string, number]> = [];
  let fenced = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push([line, i + 1]);
  });
  return lines;
}

/** GitHub's anchor for a heading's text. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor the page's headings make, duplicates numbered as GitHub numbers them. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [line] of proseLines(markdown)) {
    const heading = /^#{1,6} (.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** Every relative link and image of the page (code blocks and code spans left out). */
export function relativeLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  // A link's text may span lines: the prose is read whole, code spans blanked out first.
  const prose = proseLines(markdown);
  const text = prose.map(([line]) => line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length))).join('\n');
  for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const line = prose[text.slice(0, match.index + match[0].indexOf('](')).split('\n').length - 1][1];
    links.push({ target, line });
  }
  return links;
}
