import { describe, expect, it } from 'vitest';
import { missingOutput, readmeBlocks, splitComment } from './readme-commands.js';

describe('reading the README\'s commands', () => {
  it('takes commands, their comments and the output written under them from sh blocks, and run: lines from yaml', () => {
    const markdown = [
      '## Try',
      'Run:',
      '```sh',
      '# a comment line',
      "curl -s \"$URL/pets\" -d '{\"a\":\"#1\"}'   # 404 here",
      '#   {"code":...}',
      'npm start -- \\',
      '  --seed 2',
      '```',
      '```yaml',
      '- run: npm ci',
      '```',
      '```',
      'plain output',
      '```',
    ].join('\n');
    const [sh, yaml, plain] = readmeBlocks(markdown);
    expect(sh).toMatchObject({ lang: 'sh', heading: 'Try', intro: 'Run:', line: 3 });
    expect(sh.commands).toEqual([
      { text: "curl -s \"$URL/pets\" -d '{\"a\":\"#1\"}'", comment: '404 here', output: ['{"code":...}'], line: 5 },
      { text: 'npm start -- --seed 2', comment: '', output: [], line: 7 },
    ]);
    expect(yaml.commands.map((c) => c.text)).toEqual(['npm ci']);
    expect(plain).toMatchObject({ lang: '', text: 'plain output', commands: [] });
  });

  it('splits a comment only at a # outside quotes', () => {
    expect(splitComment("echo '# not' \"# not\" x # yes")).toEqual(["echo '# not' \"# not\" x", 'yes']);
    expect(splitComment('a#b')).toEqual(['a#b', '']);
  });

  it('finds expected lines in order, ... standing for any text, and names the first one missing', () => {
    const actual = 'HTTP/1.1 201 Created\r\nLocation: /pets/21\r\n\r\n{"id":21,"name":"Rex"}';
    expect(missingOutput(['HTTP/1.1 201 Created', '{"id":21,...}'], actual)).toBeUndefined();
    expect(missingOutput(['{"id":21,...}', 'HTTP/1.1 201 Created'], actual)).toBe('HTTP/1.1 201 Created');
    expect(missingOutput(['Location: /pets/22'], actual)).toBe('Location: /pets/22');
    expect(missingOutput(['HTTP/1.1 201'], actual)).toBe('HTTP/1.1 201'); // a whole line, not a prefix
  });
});
