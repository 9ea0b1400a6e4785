/**
 * How the banner names the document a command serves (`document  spec/openapi.yaml`): a URL as
 * given; a file by the shorter of its path from the working directory and its absolute path, so a
 * document outside the working directory is not shown as a climb of parent directories.
 */
import { isAbsolute, relative, resolve } from 'node:path';

/**
 * @param spec the document as `--spec` names it (a URL, or a path absolute or relative to `cwd`), or the bundled one's path
 * @param cwd the working directory the command runs in
 * @example shownSpec('/srv/api/openapi.yaml', '/home/me/app') // '/srv/api/openapi.yaml' (not a climb of parent directories to it)
 */
export function shownSpec(spec: string, cwd: string): string {
  if (/^https?:\/\//i.test(spec)) return spec;
  const absolute = isAbsolute(spec) ? spec : resolve(cwd, spec);
  const fromHere = relative(cwd, absolute);
  if (!fromHere) return absolute;
  return fromHere.length <= absolute.length ? fromHere : absolute;
}
