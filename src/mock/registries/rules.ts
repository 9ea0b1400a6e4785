/**
 * Business rules by operation: the rules a document states in prose (stock, status transitions,
 * references), which no schema can express. Several extensions may hook one operation; their
 * `before` hooks run in registration order until one vetoes, and every `after` hook runs.
 */
import type { OperationRule } from '../actions/action.js';

export class RuleRegistry {
  private readonly rules = new Map<string, OperationRule[]>();

  /** Hooks an operation, by its operationId. */
  register(operationId: string, rule: OperationRule): this {
    this.rules.set(operationId, [...(this.rules.get(operationId) ?? []), rule]);
    return this;
  }

  /** The operation's rules as one, or undefined when nothing hooks it. */
  for(operationId: string): OperationRule | undefined {
    const rules = this.rules.get(operationId);
    if (!rules) return undefined;
    if (rules.length === 1) return rules[0];
    const befores = rules.flatMap((rule) => (rule.before ? [rule.before] : []));
    const afters = rules.flatMap((rule) => (rule.after ? [rule.after] : []));
    return {
      before: befores.length
        ? (ctx) => {
            for (const before of befores) {
              const veto = before(ctx);
              if (veto) return veto;
            }
          }
        : undefined,
      after: afters.length ? (ctx) => afters.forEach((after) => after(ctx)) : undefined,
    };
  }

  /** The hooked operationIds. */
  operationIds(): string[] {
    return [...this.rules.keys()];
  }
}
