/**
 * What `createMock` takes: `MockOptions` on Node (`petstore-mock-kit`), `BrowserMockOptions` in a
 * browser (`petstore-mock-kit/browser`). The browser's lacks what needs Node: a document or
 * fixtures read from files, and the docs page. The defaults are the library's, which serve the
 * bundled Petstore exactly as `petstore-mock-kit serve` does.
 */
import type { RequestEntry } from './admin/request-log.js';
import type { Collection } from '../openapi/operations/collection.js';
import type { OAuthOptions } from './oauth/oauth-options.js';
import type { MockPlugin } from './registries/extension.js';
import type { StateBudget, StateLimits } from '../state/budget.js';
import type { StateStore, StoredRecord } from '../state/state-store.js';

/** The options of `createMock` from `petstore-mock-kit/browser`. */
export interface BrowserMockOptions {
  /** The OpenAPI document: the document itself as an object, or a URL to fetch it from (YAML or JSON), read against the page's address. Default: the bundled Petstore document. */
  spec?: object | string | URL;
  /** Records by collection name, seeded before generated ones (default: the Petstore's fixtures with the bundled document, none otherwise). */
  fixtures?: Record<string, StoredRecord[]>;
  /**
   * Plugins: business rules and other parts the document cannot state (a `Plugin`, whose contract
   * part the mock ignores, will do). Each decides whether it serves the document. Default:
   * `DEFAULT_PLUGINS`, the Petstore's, which serves only a Petstore-shaped document (as in the
   * CLI); `[]` for none.
   */
  plugins?: readonly MockPlugin[];
  /** Keys that open the API (default: `[DEMO_API_KEY]`, `petstore-demo-key`). */
  apiKeys?: string[];
  /** Seed for every generated value (default 1): the same seed gives the same data. */
  seed?: number;
  /** Generated records per collection, `default` for the others: `{ default: 20, pets: 100 }` (default 20 each). */
  counts?: Record<string, number>;
  /** Origins allowed by CORS (default: any). */
  corsOrigins?: string[];
  /** Latency added to every answer, [min, max] milliseconds (default none). */
  delay?: [number, number];
  /** Share of requests (0 to 1) answered with a declared 5xx (or 500), drawn from the seed (default 0). */
  errorRate?: number;
  /** Token of the admin API (/__admin); without one it answers only on loopback (default none). */
  adminToken?: string;
  /** Serve the admin API under /__admin (default true); false answers 404 there. */
  admin?: boolean;
  /** Every peer is a reverse proxy: loopback proves nothing, so the admin API needs its token (default false). */
  trustProxy?: boolean;
  /** The largest request body the admin API reads (an imported state), in bytes (default 64 MiB); a larger one gets 413 `PAYLOAD_TOO_LARGE`. */
  maxAdminBodyBytes?: number;
  /** Called after a request changed the shared state (to persist it). */
  onChange?: () => void;
  /** The clock: sunset dates, the rules (an order's ship date), the request log (default: the real time). */
  now?: () => Date;
  /** Randomness that no seed fixes (a fresh `Prefer: dynamic=true` answer), from 0 to 1 (default Math.random). */
  random?: () => number;
  /** At most this many sessions (X-Mock-Session) are kept; the least recently used go first (default 100). */
  maxSessions?: number;
  /**
   * Makes an empty store for the document's collections: the shared state and each session's
   * (default: in memory). A store whose `transact` returns a promise is waited for. The budget
   * counts the records of all stores together against `limits`.
   */
  store?: (collections: readonly Collection[], budget: StateBudget, session?: string) => StateStore;
  /**
   * Bounds on the records all stores hold together, and a heap guard (default: 2,000,000 records,
   * 512 MiB of JSON). Sessions together hold at most half of each; fixtures or a seed past a bound
   * stop the start (a `StateLimitError`), and an import or `restore` past one is refused whole.
   */
  limits?: StateLimits;
  /**
   * The authorization server under /__oauth, served when the document declares oauth2 or
   * openIdConnect schemes: token lifetimes and the origins `redirect_uri` may name besides
   * loopback ones and the mock's own (docs/oauth.md). `false` turns it off: the API keys alone
   * open those operations, as bearer tokens.
   */
  oauth?: OAuthOptions | false;
  /** Receives problems found at startup (schemas that cannot be compiled...); they are in `mock.warnings` too. */
  onWarning?: (message: string) => void;
  /**
   * Called once for every request answered: the document's operations, 404 and 405, and the
   * mock's own endpoints (admin, health, the document, CORS preflights). The CLI prints it (one
   * line per request). Keep it cheap: it runs on every request.
   */
  onRequest?: (entry: RequestEntry) => void;
  /**
   * Check every answer of the document's operations against the document before it leaves (its
   * status, media type, body schema and required headers), with the document's validators: a
   * violation is a warning (`onWarning`, once per operation, status and problem), and is counted
   * in `GET /__health` (`selfCheck`) and in the request's log entry. For tests and for trying a
   * new document; it costs a copy and a check of each answer (default false).
   */
  selfCheck?: boolean;
}

/** The options of `createMock` from `petstore-mock-kit` (Node): the browser's, and what needs Node. */
export interface MockOptions extends Omit<BrowserMockOptions, 'fixtures' | 'store'> {
  /**
   * Where the state is kept: a `postgres://user:password@host/database` URL keeps it in
   * PostgreSQL, shared by every mock (every replica) that names the same database and
   * `storeNamespace` (docs/replicas.md); `createMock` then resolves once the state is seeded or
   * loaded, and `close()` ends the connections. Or a function that makes a store, as in the
   * browser. Default: in memory.
   */
  store?: string | BrowserMockOptions['store'];
  /** With a PostgreSQL `store`: the state's name in the database (default `default`). */
  storeNamespace?: string;
  /** The OpenAPI document: a file path, an http(s) URL, or the document itself as an object; Swagger 2.0 is converted. Default: the bundled Petstore document. A URL's document may refer only to its own origin. */
  spec?: string | URL | object;
  /** A local document (a file, or the object given) may refer to URLs (`$ref: https://...`). Default false: local files only. */
  allowRemoteRefs?: boolean;
  /** A directory of `<collection>.json` files, or records by collection name (default: the Petstore's fixtures with the bundled document, none otherwise). */
  fixtures?: string | Record<string, StoredRecord[]>;
  /** Serve the docs page at /__docs, and lead GET / there when the document has no operation at `/` (default true). */
  docs?: boolean;
}
