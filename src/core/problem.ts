/**
 * A problem found in a request: where (`body.name`, `query.limit`, `path.petId`), which rule
 * (`type`, `required`, `maximum`...) and a message for humans. Validators collect problems in a
 * list rather than throwing on the first one, so one 400 names everything that is wrong.
 */
export interface Problem {
  /** Dotted location: `body.name`, `body.photoUrls.0`, `query.limit`, `header.x-request-id`. */
  path: string;
  /** The JSON Schema keyword or parsing rule that failed. */
  rule: string;
  /** What is wrong, without the path: `must be string`. */
  message: string;
  /** What the document declares where a value is not declared: the statuses, or the media types, of a response. */
  declared?: string[];
  /** Where in the schema the keyword failed (`#/properties/name/type`), when asked for (responses). */
  schemaPath?: string;
}

/** `body.name: must be string` */
export function formatProblem(problem: Problem): string {
  return `${problem.path}: ${problem.message}`;
}
