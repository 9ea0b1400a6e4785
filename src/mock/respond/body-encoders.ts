/**
 * Response body encoders by media type, for answers that are not JSON (JSON bodies are written by
 * the pipeline itself). A value generated from the response's schema goes in, the text or bytes
 * to send come out. `text/*` is built in (a `text/plain` `enum: [ok]` answers `ok`); an extension
 * may register `application/xml`, `text/csv` or anything else. A media type without an encoder is
 * answered with an empty body.
 */
import { Registry } from '../../core/registry.js';

export type BodyEncoder = (value: unknown, mediaType: string) => string | Uint8Array;

export function bodyEncoders(): Registry<BodyEncoder> {
  return new Registry<BodyEncoder>('body encoder').register('text/*', (value) =>
    value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value ?? ''),
  );
}

/** The encoder of a media type: its own, else its type's (`text/*`). */
export function encoderFor(encoders: Registry<BodyEncoder>, mediaType: string): BodyEncoder | undefined {
  const essence = mediaType.split(';')[0].trim().toLowerCase();
  return encoders.get(essence) ?? encoders.get(`${essence.split('/')[0]}/*`);
}
