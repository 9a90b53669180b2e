/**
 * Spanish messages for errors thrown by `aws-amplify/auth` on the account screens (profile, MFA, devices,
 * password change). Keys are Cognito exception names (Amplify sets `error.name` to the service's `__type`;
 * Cognito API reference "Errors" of ChangePassword, VerifySoftwareToken, SetUserMFAPreference, ForgetDevice).
 */
const MESSAGES: Readonly<Record<string, string>> = {
  NotAuthorizedException: 'La contraseña actual no es correcta.',
  CodeMismatchException: 'El código no es correcto. Escriba el código que muestra ahora su aplicación.',
  EnableSoftwareTokenMFAException: 'El código no es correcto. Escriba el código que muestra ahora su aplicación.',
  InvalidPasswordException: 'La nueva contraseña no cumple la política de contraseñas (mínimo 8 caracteres).',
  InvalidParameterException: 'Los datos enviados no son válidos.',
  LimitExceededException: 'Demasiados intentos. Inténtelo de nuevo más tarde.',
  TooManyRequestsException: 'Demasiados intentos. Inténtelo de nuevo más tarde.',
  ResourceNotFoundException: 'El dispositivo ya no existe.',
  NetworkError: 'No se pudo conectar con el servicio de identidad. Compruebe su conexión e inténtelo de nuevo.',
};

/** The Spanish message for `err` (an Amplify `AuthError` or any thrown value); never empty. */
export function authErrorMessage(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  return MESSAGES[name] ?? 'No se pudo completar la operación. Inténtelo de nuevo.';
}
