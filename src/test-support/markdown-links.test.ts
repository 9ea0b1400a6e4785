import { describe, expect, it } from 'vitest';
import { githubSlug, headingAnchors, relativeLinks } from './markdown-links.js';

describe('reading the links and anchors of a Markdown page', () => {
  it("makes GitHub's anchors: lowercase, punctuation and backticks dropped, spaces to -, repeats numbered", () => {
    expect(githubSlug('The admin API (`/__admin`)')).toBe('the-admin-api-__admin');
    expect(githubSlug('Who can reach what (threat model)')).toBe('who-can-reach-what-threat-model');
    expect(githubSlug('Deprecation and sunset, live')).toBe('deprecation-and-sunset-live');
    expect(githubSlug('Sessions: your own copy of the data')).toBe('sessions-your-own-copy-of-the-data');
    const markdown = ['# Title', '## Errors', '```sh', '# not a heading', '```', '### Errors'].join('\n');
    expect([...headingAnchors(markdown)]).toEqual(['title', 'errors', 'errors-1']);
  });

  it('takes relative links and images, with their line, outside code blocks and code spans', () => {
    const markdown = [
      'See [the flags](mock.md#flags) and [a', 'walk](../README.md#a-walk-through-with-curl).',
      '![shot](images/a.png) [site](https://example.com) [here](#here)',
      '`[not](a-link.md)`',
      '```md',
      '[not](either.md)',
      '```',
    ].join('\n');
    expect(relativeLinks(markdown)).toEqual([
      { target: 'mock.md#flags', line: 1 },
      { target: '../README.md#a-walk-through-with-curl', line: 2 },
      { target: 'images/a.png', line: 3 },
      { target: '#here', line: 3 },
    ]);
  });
});
