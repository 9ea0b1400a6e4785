/**
 * Error responses the document gives no example for, shown with an example that has their status
 * (src/mock/docs/error-example.ts): wraps Swagger UI's `response` component, giving each JSON media
 * type of a 4xx or 5xx response without `example` or `examples` the sample Swagger UI would
 * generate, with the status put in. Responses with examples of their own are shown as written.
 */
import { isJsonMediaType } from '../../../core/media-type.js';
import { errorExample } from '../error-example.js';
import type { Component, ImmutableMap, System } from './swagger-ui.js';

interface ResponseProps {
  response: ImmutableMap;
  /** The status as declared: `404`, `4XX`, `default`. */
  code: string;
  fn: { getSampleSchema: (schema: unknown, mediaType: string, config: Record<string, unknown>) => unknown };
}

/** The wrapper of `response`, for the plugin's `wrapComponents`. */
export function errorExamples(Original: unknown, system: System): Component<ResponseProps> {
  /** Each response as shown, once per response Swagger UI hands over (it renders again on every change). */
  const shown = new WeakMap<ImmutableMap, ImmutableMap>();
  return (props) => {
    const status = Number(props.code);
    if (!(status >= 400) || !props.response?.get) return system.React.createElement(Original, { ...props });
    let response = shown.get(props.response);
    if (!response) shown.set(props.response, (response = withStatusExamples(props.response, status, props.fn)));
    return system.React.createElement(Original, { ...props, response });
  };
}

function withStatusExamples(response: ImmutableMap, status: number, fn: ResponseProps['fn']): ImmutableMap {
  const content = response.get('content') as ImmutableMap | undefined;
  let shown = response;
  for (const [mediaType, media] of Object.entries(content?.toJS() ?? {}) as Array<[string, Record<string, unknown>]>) {
    if (!media?.schema || media.example !== undefined || media.examples !== undefined || !isJsonMediaType(mediaType.split(';')[0].trim().toLowerCase())) continue;
    const sample = fn.getSampleSchema(media.schema, mediaType, { includeReadOnly: true });
    let parsed: unknown;
    try {
      parsed = typeof sample === 'string' ? JSON.parse(sample) : sample;
    } catch {
      continue;
    }
    shown = shown.setIn(['content', mediaType, 'example'], errorExample(parsed, status));
  }
  return shown;
}
