/**
 * Check ids are a closed type: the built-in ones and those a plugin declares compile, a
 * misspelled one does not (`npm run lint` type-checks the `@ts-expect-error` lines below), and
 * `--only` is still checked at run time.
 */
import { describe, expect, it } from 'vitest';
import { petstoreDocument } from '../test-support/petstore.js';
import { CHECK_IDS, type CheckId } from './check-id.js';
import { checkRegistry } from './checks/index.js';
import type { Fault } from '../test-support/contract-servers/faults.js';
import type { Phase } from './phases/phase.js';
import type { ContractPart } from './plugin.js';
import { petstoreContract } from '../plugins/petstore/contract.js';
import { PLUGINS } from '../plugins/index.js';
import type { Purpose } from './purpose.js';
import { selectRun } from './select.js';

describe('check ids', () => {
  it('do not compile when misspelled, in a phase, a fault, a plugin or a case\'s purpose (npm run lint checks the lines below)', () => {
    // @ts-expect-error: Schemathesis's name, not one of ours
    const misspelled: CheckId = 'use_after_free';
    // @ts-expect-error: a phase feeding a check that does not exist
    const phase: Phase = { name: 'p', checks: ['edge_case'], changesState: false, run: async () => undefined };
    // @ts-expect-error: a fault that no check would catch
    const fault: Fault = { name: 'f', breaks: 'b', caughtBy: 'status_code_conformence', wrap: () => async () => new Response() };
    // @ts-expect-error: a plugin registering a check it did not declare
    const plugin: ContractPart = { checks: { undeclared_check: { check: () => undefined } } };
    // @ts-expect-error: a purpose without the data its check needs
    const purpose: Purpose = { check: 'use_after_delete', kind: 'read-after-create' };
    // What they would have been at run time: ids no check answers to, so a finding they name could never come.
    const registry = checkRegistry([{ name: 'petstore', part: petstoreContract }]);
    expect([misspelled, phase.checks[0], fault.caughtBy, ...Object.keys(plugin.checks ?? {})].filter((id) => registry.has(id as CheckId))).toEqual([]);
    expect(registry.has(purpose.check)).toBe(true);
  });

  it('are the built-in ones, then those the plugin declares, in the registry of a run', () => {
    const declared: CheckId[] = ['referential_integrity', 'state_transitions'];
    expect([...checkRegistry([{ name: 'petstore', part: petstoreContract }]).keys()]).toEqual([...CHECK_IDS, ...declared]);
    expect([...checkRegistry().keys()]).toEqual([...CHECK_IDS]);
  });

  it('are still checked at run time where they come from the command line (--only)', async () => {
    const document = await petstoreDocument();
    expect(await selectRun({ only: ['use_after_free'] }, document, true, PLUGINS)).toMatch(/^Unknown check use_after_free; the checks are: response_received, .*, state_transitions\.$/);
    expect(await selectRun({ only: ['state_transitions'], plugins: ['none'] }, document, true, PLUGINS)).toMatch(/^Unknown check state_transitions;/);
    expect(await selectRun({ only: ['state_transitions'] }, document, true, PLUGINS)).toMatchObject({ only: ['state_transitions'] });
  });
});
