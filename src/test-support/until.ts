/**
 * Waiting for a condition in a test: polled until it holds. The limit only ends a hang: a working
 * system meets the condition far sooner, so a slow machine never fails a test that waits with it.
 */
export async function until(condition: () => Promise<boolean> | boolean, what: string, limitMs = 120_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Still waiting, after ${limitMs / 1000} s, for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
