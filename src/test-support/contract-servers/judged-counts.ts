/**
 * What a run's confirmation counts must be, worked out from the exchanges it sent (`onExchange`):
 * every negative case confirmed invalid, every clean-up and edge probe unjudged (but the reads of
 * a child around its parent's delete), every other case
 * confirmed valid. Tests compare it with `report.confirmed`: a case sent without the validator's
 * word would make them differ.
 */
import type { Exchange } from '../../contract/case.js';
import type { ConfirmedCounts } from '../../contract/confirmation.js';

export function judgedCounts(sent: Exchange[]): Omit<ConfirmedCounts, 'unconfirmed'> {
  const invalid = sent.filter((ex) => ex.case.intent === 'invalid' && ex.case.purpose?.check === 'negative_data_rejection').length;
  // The reads of the suite's own child around the delete of its parent are valid requests, judged like any other.
  const unjudged = sent.filter((ex) => ex.case.intent === 'cleanup' || (ex.case.purpose?.check === 'edge_cases' && ex.case.intent !== 'guessed')).length;
  return { valid: sent.length - invalid - unjudged, invalid, unjudged };
}
