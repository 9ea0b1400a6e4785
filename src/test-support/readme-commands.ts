/**
 * The commands of the README and of the pages of docs/, read from their code blocks, so a test can
 * run every one of them.
 *
 * In a `sh` block every line that is not a comment is a command (a trailing `\` continues it). A
 * command may end with a comment (`# ...`), and may be followed by the output it prints, each
 * line written as `#   ` and the text (`...` stands for any text). In a `yaml` block the values
 * of `run:` keys are commands. Other blocks (output shown as it is printed, TypeScript) hold no
 * commands.
 */

export interface ReadmeCommand {
  /** The command as written, continuation lines joined. */
  text: string;
  /** The comment after it, without the `#`. */
  comment: string;
  /** The lines it prints, as written after `#   `. */
  output: string[];
  /** 1-based line of the page where it starts. */
  line: number;
}

export interface ReadmeBlock {
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The text of the block, as written. */
  text: string;
  /** The nearest heading above the block. */
  heading: string;
  /** The last line of text before the block (`\`npm start\` prints:`). */
  intro: string;
  commands: ReadmeCommand[];
}

const OUTPUT_LINE = /^#   (.*)$/;

/** Every fenced block of a Markdown text, with the commands of the `sh` and `yaml` ones. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split('\n');
  const blocks: ReadmeBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]);
    if (!fence) {
      if (/^#{1,6} /.test(lines[i])) heading = lines[i].replace(/^#+ /, '');
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    const lang = fence[1];
    const commands = lang === 'sh' ? shellCommands(body, start + 2) : lang === 'yaml' ? yamlCommands(body, start + 2) : [];
    const intro = lines.slice(0, start).reverse().find((l) => l.trim()) ?? '';
    blocks.push({ lang, line: start + 1, text: body.join('\n'), heading, intro, commands });
  }
  return blocks;
}

function shellCommands(body: string[], firstLine: number): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  for (let i = 0; i < body.length; i++) {
    const line = body[i];
    const output = OUTPUT_LINE.exec(line);
    if (output && commands.length) {
      commands[commands.length - 1].output.push(output[1].trimEnd());
      continue;
    }
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const start = i;
    let text = line;
    while (text.endsWith('\\') && i + 1 < body.length) text = `${text.slice(0, -1)}${body[++i].trimStart()}`;
    const [command, comment] = splitComment(text);
    commands.push({ text: command.replace(/\s+/g, ' ').trim(), comment, output: [], line: firstLine + start });
  }
  return commands;
}

function yamlCommands(body: string[], firstLine: number): ReadmeCommand[] {
  return body.flatMap((line, i) => {
    const run = /^\s*(?:- )?run: (.*)$/.exec(line);
    return run ? [{ text: run[1].trim(), comment: '', output: [], line: firstLine + i }] : [];
  });
}

/** `curl -d '{"a":"#"}' x  # note` -> [`curl -d '{"a":"#"}' x`, `note`]: a `#` after a space and outside quotes. */
export function splitComment(text: string): [string, string] {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) return [text.slice(0, i).trimEnd(), text.slice(i + 1).trim()];
  }
  return [text, ''];
}

/** Whether `actual` holds every expected line, in order; `...` in an expected line stands for any text. */
export function missingOutput(expected: string[], actual: string): string | undefined {
  const lines = actual.replace(/\r/g, '').split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected) {
    const pattern = new RegExp(`^${want.split('...').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    const found = lines.findIndex((line, i) => i >= at && pattern.test(line.trim()));
    if (found < 0) return want;
    at = found + 1;
  }
  return undefined;
}
