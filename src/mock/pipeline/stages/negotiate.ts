/**
 * Stage `negotiate`: what the success answer is sent as, from `Accept`: a 406 before anything
 * changes where `Accept` takes none of the declared media types and the operation declares 406;
 * otherwise the first of them, noted in the log.
 */
import { errors } from '../../../core/api-error.js';
import type { Registry } from '../../../core/registry.js';
import type { Operation } from '../../../openapi/operations/operation.js';
import { findResponse } from '../../../openapi/operations/build-operations.js';
import { encoderFor, type BodyEncoder } from '../../respond/body-encoders.js';
import { acceptsAnything, choose, declaredTypes, representations, takesAny } from '../../respond/negotiate.js';
import { successResponse } from '../../respond/static-response.js';
import type { Fail } from './fail.js';
import type { Stage } from './stage.js';
import { fitted } from './trace.js';

/** The stage for an operation, or undefined when `Accept` cannot change its answer (no success media types, no 406). */
export function negotiate(operation: Operation, encoders: Registry<BodyEncoder>, fail: Fail): Stage | undefined {
  const primary = successResponse(operation);
  const choices = primary ? representations(primary, (essence) => encoderFor(encoders, essence) !== undefined) : [];
  const notAcceptable = findResponse(operation, 406) !== undefined;
  if (!primary || (choices.length === 0 && !notAcceptable)) return undefined;
  const declared = Object.keys(primary.content);
  return {
    name: 'negotiate',
    run(request) {
      const { accept } = request;
      if (!acceptsAnything(accept) && choices.length > 0) {
        const chosen = choose(choices, accept)!;
        if (!chosen.fits) {
          if (notAcceptable) return fail(request, errors.notAcceptable(accept!, declared));
          fitted(request.trace, `Accept ${accept} takes none of the media types declared for ${primary.status} (${declaredTypes(primary.content)}), and ${operation.method.toUpperCase()} ${operation.path} declares no 406; answered ${chosen.type}, the first of them.`, false);
        }
        request.respondAs = chosen.key;
      } else if (notAcceptable && choices.length === 0 && !takesAny(primary.content, accept)) {
        // Declared only in media types the mock does not write (an image): Accept still decides the 406.
        return fail(request, errors.notAcceptable(accept!, declared));
      }
      return undefined;
    },
  };
}
