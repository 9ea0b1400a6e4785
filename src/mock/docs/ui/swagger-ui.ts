/**
 * The parts of Swagger UI (swagger-ui-dist's `SwaggerUIBundle`, 5.x) this page uses, typed as far
 * as it uses them: the plugin API (wrapComponents, wrapSelectors, wrapActions; see Swagger UI's
 * docs/customization/plugin-api.md) and the React it renders with (`system.React`).
 */

/** An Immutable.js Map as Swagger UI hands operations to components. */
export interface ImmutableMap {
  get(key: string): unknown;
  getIn(path: readonly string[]): unknown;
  /** A copy with the value at the path set. */
  setIn(path: readonly string[], value: unknown): ImmutableMap;
  toJS(): Record<string, unknown>;
}

export type ReactNode = unknown;
export type Component<P = Record<string, unknown>> = (props: P) => ReactNode;

/** The few React APIs used, from the React inside Swagger UI's bundle. */
export interface ReactApi {
  createElement(type: unknown, props?: Record<string, unknown> | null, ...children: ReactNode[]): ReactNode;
  Fragment: unknown;
  useState<T>(initial: T): [T, (value: T) => void];
}

/** Swagger UI's component lookup; a missing component is logged ("Could not find component") unless `failSilently`. */
export type GetComponent = (name: string, container?: boolean | 'root', config?: { failSilently?: boolean }) => unknown;

export interface System {
  React: ReactApi;
  getComponent: GetComponent;
}

/** What executeRequest is given (src/core/plugins/spec/actions.js): the request to build and send. */
export interface ExecuteRequest {
  pathName: string;
  method: string;
  /** The document with its references resolved, a fresh copy for this request. */
  spec: { paths: Record<string, Record<string, { parameters?: unknown[] }>> };
  parameters?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface SwaggerPlugin {
  wrapComponents?: Record<string, (Original: unknown, system: System) => Component<any>>;
  statePlugins?: Record<
    string,
    {
      wrapSelectors?: Record<string, (original: (...args: any[]) => unknown, system: System) => (state: unknown, ...args: any[]) => unknown>;
      wrapActions?: Record<string, (original: (...args: any[]) => unknown, system: System) => (...args: any[]) => unknown>;
    }
  >;
}

export interface SwaggerUi {
  preauthorizeApiKey(scheme: string, value: string): unknown;
  preauthorizeBasic(scheme: string, username: string, password: string): unknown;
  /** What Authorize's OAuth flows start with (Swagger UI's docs/usage/oauth2.md). */
  initOAuth(config: { clientId?: string; clientSecret?: string; scopeSeparator?: string; usePkceWithAuthorizationCodeGrant?: boolean }): unknown;
}

export interface SwaggerUiBundle {
  (config: Record<string, unknown>): SwaggerUi;
  presets: { apis: unknown };
}

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUiBundle;
  }
}
