/**
 * What one request carries from stage to stage of the pipeline: the scenario it asked for (read
 * by scenarios/), the validated input an action acts on, and the result it answers with. Below
 * every stage, so that none imports another for these.
 */
import type { ApiError } from '../../core/api-error.js';
import type { StateStore } from '../../state/state-store.js';
import type { ParsedParameters } from '../../openapi/validation/parse-parameters.js';
import { ClientBase, type ClientUrls } from './client-base.js';

/** What the request asked for with `Prefer` (or the query fallbacks): scenarios/read-scenario.ts. */
export interface Scenario {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: number;
  /** Milliseconds, a range: [min, max]. */
  delay?: [number, number];
  /** Values of directives registered by extensions, by directive name. */
  extra?: Record<string, unknown>;
}

export interface ActionInput {
  /** The state this request acts on: the shared one, or its session's. */
  store: StateStore;
  params: ParsedParameters;
  body: unknown;
  /** The declared media type of the body (decides how a PATCH applies: merge-patch, JSON Patch, fields). */
  mediaType?: string;
  /** The request path and query as the mock routes them: `/pets?limit=20`. */
  url: string;
  /** Where the client reached the mock, to turn the mock's paths into the client's URLs (`Location`, `Link`): read on first use. Absent: the mock's own paths. */
  client?: () => ClientUrls;
  /** What the request asked for with `Prefer` (an extension's directives in `extra`). */
  scenario?: Scenario;
  /**
   * The declared media type (a key of the success response's `content`) the request's `Accept`
   * chose, when it is not the one answered by default; an action that writes its own
   * `Content-Type` (a static answer) answers in it.
   */
  respondAs?: string;
}

export interface ActionResult {
  status: number;
  body?: unknown;
  /** The body already serialised as JSON (stored records keep their text until they change). */
  json?: string;
  headers?: Record<string, string>;
}

export type Action = (input: ActionInput) => ActionResult | ApiError;

/** The client's path for a path of the mock (`/v1/pets/21` is `/api/pets/21` behind MSW with the base `/api`). */
export function clientPath(input: Pick<ActionInput, 'client'>, mockPath: string): string {
  return input.client ? input.client().path(mockPath) : mockPath;
}

/** The client's path for a path of the mock, or with `absolute` its whole URL (`http://app.test/api/pets/21`). */
export function clientUrl(input: Pick<ActionInput, 'client'>, mockPath: string, absolute: boolean): string {
  const client: ClientUrls = input.client?.() ?? ClientBase.SAME;
  return absolute ? client.url(mockPath) : client.path(mockPath);
}
