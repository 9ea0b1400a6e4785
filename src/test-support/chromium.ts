/**
 * Debian's Chromium (`apt-get install -y chromium`, done by .ci/run) driven by playwright-core:
 * never a browser download.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless Chromium; a clear error when it is not installed. Extra flags are added to the usual ones. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`This test needs Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does it).`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', ...extraArgs] });
}
