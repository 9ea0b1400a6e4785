/**
 * edge_cases: requests at the edges (a dangling reference, the delete of a parent in use, page
 * sizes and offsets past their bounds) never get a 5xx, whatever else the server does with them.
 */
import { caseCheck, statusVerdicts } from './check.js';

export const edge_cases = caseCheck('edge_cases', (ex) => statusVerdicts(ex, ['1XX', '2XX', '3XX', '4XX'], `no 5xx for ${ex.case.label}`));
