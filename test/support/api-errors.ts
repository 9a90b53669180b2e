/**
 * Assertions on the domain's refusals: the `ApiError` a synchronous rule throws (lambdas/domain/errors.ts).
 */
import { ApiError } from '../../lambdas/domain/errors.js';

/**
 * The `ApiError` that `f` throws when called, or `undefined` when it returns normally.
 * @throws whatever else `f` throws (any error that is not an `ApiError`), so an unexpected failure stays one.
 */
export function errorOf(f: () => unknown): ApiError | undefined {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  return undefined;
}
