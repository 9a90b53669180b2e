/**
 * One mapping from an API refusal to a form's errors, used by every form that shows errors under its fields
 * (docs/portal.md#forms). The API answers a bad body with `400 VALIDATION_FAILED` and `details[]` of
 * `{ path: 'body.<field>[.<i>…]', message }` (docs/api.md#errors); each detail goes under the field its path
 * names, or — when the form has no such field — to the form's own error. Other codes may be mapped by the
 * form (`byCode`: e.g. a domain already in use goes under the domains field); anything else is one form error
 * with the API's message in the reader's language and the request id, so support can find it.
 */
import { toApiError, type ApiError } from './api';

/** A form's errors: one text per field key, and `form` for what belongs to no field. */
export type FormErrors<K extends string = string> = Partial<Record<K | 'form', string>>;

/** How one form reads the API's refusal. */
export interface FormErrorMapping<K extends string> {
  /**
   * The form's key of a detail's path inside the body (`body.` removed; array indexes as numbers:
   * `['contacts', 0, 'phone']`), or undefined when no field of the form shows it (it goes to `form`).
   */
  fieldOf(path: readonly (string | number)[]): K | undefined;
  /** The text shown under a field (default: the API's message for it). */
  fieldText?(key: K, path: readonly (string | number)[], message: string): string;
  /** The form-level text of an API message; `requestId` when the answer had one (default: `message (id)`). */
  formText?(message: string, requestId?: string | null): string;
  /** Answers for other codes (checked after VALIDATION_FAILED details); undefined: the generic form error. */
  byCode?: Readonly<Record<string, (e: ApiError) => FormErrors<K> | undefined>>;
}

/** `message (requestId)`, or the message alone. */
export const withReference = (message: string, requestId?: string | null): string => (requestId ? `${message} (${requestId})` : message);

/** The path of a detail without its leading `body`, numeric segments as numbers. */
function bodyPath(path: string | undefined): (string | number)[] | null {
  const parts = (path ?? '').split('.');
  if (parts[0] !== 'body') return null;
  return parts.slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/**
 * The errors of a failed save (`err` as thrown by the API client): VALIDATION_FAILED details under their
 * fields (the first per field), details of no field and every other refusal as the form error.
 */
export function formErrorsOf<K extends string>(err: unknown, m: FormErrorMapping<K>): FormErrors<K> {
  const e = toApiError(err);
  const formText = m.formText ?? withReference;
  if (e.code === 'VALIDATION_FAILED' && Array.isArray(e.details)) {
    const out: FormErrors<K> = {};
    for (const d of e.details as Array<{ path?: string; message?: string }>) {
      const message = d.message ?? e.userMessage;
      const path = bodyPath(d.path);
      const key = path ? m.fieldOf(path) : undefined;
      if (key !== undefined && path) out[key] ??= m.fieldText ? m.fieldText(key, path, message) : message;
      else out.form ??= formText(message);
    }
    if (Object.keys(out).length) return out;
  }
  const special = e.code !== null ? m.byCode?.[e.code]?.(e) : undefined;
  if (special) return special;
  return { form: formText(e.userMessage, e.requestId) } as FormErrors<K>;
}

/** A `fieldOf` for flat forms: the first path segment when it is one of `fields`. */
export function topLevelField<K extends string>(fields: readonly K[]): (path: readonly (string | number)[]) => K | undefined {
  return (path) => (typeof path[0] === 'string' && (fields as readonly string[]).includes(path[0]) ? (path[0] as K) : undefined);
}
