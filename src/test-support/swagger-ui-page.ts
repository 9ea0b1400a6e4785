/**
 * Driving the docs page's Swagger UI in Chromium (playwright-core): an operation's block, opening
 * and closing it, and Try it out, as the docs page's browser tests do it.
 */
import type { Locator, Page } from 'playwright-core';
import { until } from './until.js';

/** The block of one operation (the first, if it is listed under several tags). */
export function opblock(page: Page, method: string, path: string): Locator {
  return page
    .locator('.opblock')
    .filter({ has: page.locator(`[data-path="${path}"]`) })
    .filter({ has: page.locator('.opblock-summary-method', { hasText: new RegExp(`^${method}$`, 'i') }) })
    .first();
}

/**
 * Waits until the locator matches `n` elements; fails, naming how many it matched, only when that
 * never comes (until's limit ends a hang). Not `expect.poll`: that needs the test it runs in, which
 * a helper awaited by concurrent tests (describe.concurrent) cannot name.
 */
export async function count(locator: Locator, n: number, message?: string): Promise<void> {
  let matched = -1;
  try {
    await until(async () => (matched = await locator.count()) === n, `${n} element(s)`);
  } catch {
    throw new Error(`${message ?? String(locator)}: expected ${n} element(s), matched ${matched}`);
  }
}

export async function expand(block: Locator): Promise<void> {
  if (!(await block.evaluate((element) => element.classList.contains('is-open')))) await block.locator('.opblock-summary-control').click();
  await block.locator('.opblock-body').waitFor();
}

/** Closes an open operation: Swagger UI renders the open ones again on each change, so the next is quicker with fewer open. */
export async function collapse(block: Locator): Promise<void> {
  await block.locator('.opblock-summary-control').click();
  await block.locator('.opblock-body').waitFor({ state: 'detached' });
}

/** Try it out, optionally with a scenario chosen, Execute, and the status and body shown. */
export async function tryIt(block: Locator, scenario?: string): Promise<{ status: number; body: string }> {
  await expand(block);
  const cancel = block.locator('.try-out__btn.cancel');
  if (!(await cancel.count())) await block.locator('.try-out__btn').click();
  if (scenario !== undefined) await block.locator('.mock-scenario select').selectOption(scenario);
  // A response from before is cleared first, so the one read is this request's.
  const clear = block.locator('button.btn-clear');
  if (await clear.count()) await clear.click();
  const responses = block.locator('.live-responses-table tbody .response-col_status');
  await count(responses, 0);
  await block.locator('button.execute').click();
  // Swagger UI sends nothing while a required value is missing: it lists what is, and that is the failure.
  await responses.or(block.locator('.validation-errors')).first().waitFor();
  const refused = block.locator('.validation-errors');
  if (await refused.count()) throw new Error(`Try it out sent nothing: ${await refused.textContent()}`);
  // A 204 has no body to show.
  const body = block.locator('.live-responses-table tbody .response-col_description .microlight');
  return { status: Number((await responses.first().textContent())?.trim()), body: (await body.count()) ? ((await body.first().textContent()) ?? '') : '' };
}
