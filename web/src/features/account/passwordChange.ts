import { t as msg } from '../../shared/lib/messages';
/**
 * Validation of the `/page/passwordchange` form (docs/portal.md#password-rules).
 *
 * - Every field is required ('Este campo es obligatorio').
 * - The new password needs `minLength` characters (the user pool's policy; the deployment uses 8):
 *   'Password must have at least {n} characters' → 'La contraseña debe tener al menos {n} caracteres'. No character
 *   classes are required by the deployment.
 * - 'Your passwords must match' → 'Las contraseñas deben coincidir' when both new fields have content and differ,
 *   once both were touched or both have at least 6 characters.
 */
export interface PasswordChangeValues {
  current: string;
  next: string;
  confirm: string;
}
export type PasswordChangeField = keyof PasswordChangeValues;
export type PasswordChangeErrors = Partial<Record<PasswordChangeField, string>>;

export const PASSWORD_MIN_LENGTH = 8;
/** "Las contraseñas deben coincidir" in the portal's language. */
export const passwordsMustMatch = (): string => msg('account.passwordChange.passwordsMustMatch');
/** "Este campo es obligatorio" in the portal's language. */
export const required = (): string => msg('account.passwordChange.required');
export const tooShort = (n: number): string => msg('account.passwordChange.minLength', { n });

/**
 * Errors to show for `values`. `touched` lists the fields the user has left; `submitted` shows every error
 * (required fields included). Passwords are never trimmed.
 */
export function validatePasswordChange(
  values: PasswordChangeValues,
  touched: Partial<Record<PasswordChangeField, boolean>>,
  submitted = false,
  minLength = PASSWORD_MIN_LENGTH,
): PasswordChangeErrors {
  const errors: PasswordChangeErrors = {};
  const shows = (field: PasswordChangeField) => submitted || touched[field];
  for (const field of ['current', 'next', 'confirm'] as const) {
    if (!values[field] && shows(field)) errors[field] = required();
  }
  if (values.next && values.next.length < minLength && shows('next')) errors.next = tooShort(minLength);
  const bothTouched = Boolean(touched.next && touched.confirm);
  const bothLong = values.next.length >= 6 && values.confirm.length >= 6;
  if (values.next && values.confirm && values.next !== values.confirm && (submitted || bothTouched || bothLong)) {
    errors.confirm = passwordsMustMatch();
  }
  return errors;
}
