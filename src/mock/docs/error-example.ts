/**
 * The example of an error response the document gives none for: Swagger UI generates one from the
 * schema alone, without the status it answers, so the Petstore's 404 and 410 of getPet read
 * `{"code": "VALIDATION_FAILED", "status": 599}` (the Error schema's `code` example and its
 * `status` maximum). The page puts its status in it (src/mock/docs/ui/error-examples.ts).
 */
import { reasonPhrase } from '../../core/status-text.js';

/** Fields that carry an error's code, by the names the mock fills (src/mock/respond/error-response.ts). */
const CODE_FIELDS = /^(code|error_code|errorCode)$/;

/**
 * The generated sample with the response's status in it: a numeric `status` (or `statusCode`)
 * becomes the status; a code field becomes the code the mock answers a forced status with
 * (`NOT_FOUND` for 404, from the reason phrase), or the status where the code is a number. Any
 * other value as generated.
 *
 * @example errorExample({ code: 'VALIDATION_FAILED', message: 'string', status: 599 }, 404) // { code: 'NOT_FOUND', message: 'string', status: 404 }
 */
export function errorExample(sample: unknown, status: number): unknown {
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return sample;
  const example: Record<string, unknown> = { ...(sample as Record<string, unknown>) };
  for (const [name, value] of Object.entries(example)) {
    if (/^status(Code)?$/.test(name) && typeof value === 'number') example[name] = status;
    // The code as src/mock/scenarios/force-response.ts makes it for `Prefer: code=404`.
    else if (CODE_FIELDS.test(name)) example[name] = typeof value === 'number' ? status : (reasonPhrase(status) ?? 'Error').toUpperCase().replace(/[^A-Z0-9]+/g, '_');
  }
  return example;
}
