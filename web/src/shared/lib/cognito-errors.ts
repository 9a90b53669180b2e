/**
 * The one catalogue of Spanish texts for the errors the portal can receive from Amazon Cognito user pools
 * (docs/portal.md#identity-service-errors).
 *
 * Each entry names the Cognito error code (`__type` on the wire; Amplify v6 copies it into `error.name`),
 * the English message it comes from (`error.message`, as the service or the local user pool writes it;
 * `null` = any other message of that code) and the operations that can answer it. Sources: the "Errors"
 * section of each operation in the Amazon Cognito user pools API reference, messages observed from the
 * service, and the local user pool (cognito-local and its compatibility proxy) whose texts differ in a few
 * places ("Incorrect confirmation code").
 *
 * Two consumers:
 *  - the sign-in widget (Amplify UI `<Authenticator>`) shows `I18n.get(error.message)`: `registerCognitoErrorTexts`
 *    adds every English message → Spanish text of the sign-in operations to Amplify's Spanish dictionary;
 *  - the account screens call `cognitoErrorText(err, operations)` (features/account/authErrors.ts), which also
 *    falls back by code when the message is unknown.
 *
 * This module is a chunk of its own: the sign-in page loads it after the first render (docs/portal.md#bundles).
 */
import { I18n } from 'aws-amplify/utils';

/** The Cognito user-pool operations the portal calls (through Amplify or the Authenticator). */
export type CognitoOperation =
  | 'InitiateAuth'
  | 'RespondToAuthChallenge'
  | 'SignUp'
  | 'ConfirmSignUp'
  | 'ResendConfirmationCode'
  | 'ForgotPassword'
  | 'ConfirmForgotPassword'
  | 'ChangePassword'
  | 'AssociateSoftwareToken'
  | 'VerifySoftwareToken'
  | 'SetUserMFAPreference'
  | 'GetUser'
  | 'UpdateUserAttributes'
  | 'GetUserAttributeVerificationCode'
  | 'VerifyUserAttribute'
  | 'GetTokensFromRefreshToken'
  | 'GlobalSignOut'
  | 'RevokeToken'
  | 'ListDevices'
  | 'ConfirmDevice'
  | 'UpdateDeviceStatus'
  | 'ForgetDevice';

/** One catalogue entry: Cognito code + English message → Spanish text. */
export interface CognitoErrorText {
  /** Cognito error code, e.g. `CodeMismatchException` (or Amplify's own name, e.g. `NetworkError`). */
  readonly code: string;
  /** The English message it comes from; `null` = any other message of `code`. */
  readonly en: string | null;
  /** The Spanish text shown. */
  readonly es: string;
  /** Operations that can answer it. */
  readonly operations: readonly CognitoOperation[];
}

/** Operations run by the sign-in widget (sign-in, sign-up, confirmations, reset, TOTP, verify contact). */
export const SIGN_IN_OPERATIONS: readonly CognitoOperation[] = [
  'InitiateAuth',
  'RespondToAuthChallenge',
  'SignUp',
  'ConfirmSignUp',
  'ResendConfirmationCode',
  'ForgotPassword',
  'ConfirmForgotPassword',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'GetUser',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'GetTokensFromRefreshToken',
];

/** Operations of the signed-in account screens (profile, password change, TOTP, devices, sign-out). */
export const ACCOUNT_OPERATIONS: readonly CognitoOperation[] = [
  'ChangePassword',
  'AssociateSoftwareToken',
  'VerifySoftwareToken',
  'SetUserMFAPreference',
  'GetUser',
  'UpdateUserAttributes',
  'GetUserAttributeVerificationCode',
  'VerifyUserAttribute',
  'ListDevices',
  'UpdateDeviceStatus',
  'ForgetDevice',
  'GlobalSignOut',
  'RevokeToken',
];

const AUTH: CognitoOperation[] = ['InitiateAuth', 'RespondToAuthChallenge'];
const TOKENS: CognitoOperation[] = ['GetTokensFromRefreshToken', 'GlobalSignOut', 'RevokeToken', 'GetUser', 'ChangePassword', 'UpdateUserAttributes', 'GetUserAttributeVerificationCode', 'VerifyUserAttribute', 'AssociateSoftwareToken', 'VerifySoftwareToken', 'SetUserMFAPreference', 'ListDevices', 'ConfirmDevice', 'UpdateDeviceStatus', 'ForgetDevice'];
const CODES: CognitoOperation[] = ['ConfirmSignUp', 'ConfirmForgotPassword', 'VerifyUserAttribute'];
const SENDS: CognitoOperation[] = ['SignUp', 'ResendConfirmationCode', 'ForgotPassword', 'GetUserAttributeVerificationCode'];
const NEW_PASSWORD: CognitoOperation[] = ['SignUp', 'ConfirmForgotPassword', 'ChangePassword', 'RespondToAuthChallenge'];
const ALL: CognitoOperation[] = [...new Set<CognitoOperation>([...SIGN_IN_OPERATIONS, ...ACCOUNT_OPERATIONS, 'ConfirmDevice'])];

const TRY_LATER = 'Demasiados intentos. Inténtelo de nuevo más tarde.';
const WRONG_CODE = 'El código no es correcto. Compruébelo e inténtelo de nuevo.';
const WRONG_TOTP = 'El código no es correcto. Escriba el código que muestra ahora su aplicación de autenticación.';
const EXPIRED_CODE = 'El código ha caducado. Solicite uno nuevo.';
const SESSION_EXPIRED = 'Su sesión ha caducado. Inicie sesión de nuevo.';
const POLICY = 'La contraseña no cumple la política de contraseñas: ';

/** Password-policy messages: Cognito writes "does not conform to" (SignUp) and "did not conform with" (others). */
const policy = (rule: string, es: string): CognitoErrorText[] =>
  ['Password does not conform to policy: ', 'Password did not conform with policy: '].map((prefix) => ({
    code: 'InvalidPasswordException',
    en: prefix + rule,
    es: POLICY + es,
    operations: NEW_PASSWORD,
  }));

/**
 * The catalogue. Order matters only between entries with the same code and message: the lookup prefers the
 * entry whose operations include the caller's (e.g. a wrong current password on ChangePassword).
 */
export const COGNITO_ERRORS: readonly CognitoErrorText[] = [
  // Sign-in (SRP or password) and its challenges.
  { code: 'NotAuthorizedException', en: 'Incorrect username or password.', es: 'Correo electrónico o contraseña incorrectos.', operations: AUTH },
  { code: 'NotAuthorizedException', en: 'Incorrect username or password.', es: 'La contraseña actual no es correcta.', operations: ['ChangePassword'] },
  { code: 'NotAuthorizedException', en: 'Password attempts exceeded', es: 'Se superó el número de intentos de contraseña. Inténtelo de nuevo más tarde.', operations: [...AUTH, 'ChangePassword'] },
  { code: 'NotAuthorizedException', en: 'User is disabled.', es: 'La cuenta está desactivada. Póngase en contacto con el administrador.', operations: [...AUTH, 'GetTokensFromRefreshToken'] },
  { code: 'NotAuthorizedException', en: 'Invalid session for the user, session is expired.', es: 'La sesión de inicio ha caducado. Vuelva a iniciar sesión.', operations: ['RespondToAuthChallenge', 'VerifySoftwareToken'] },
  { code: 'NotAuthorizedException', en: 'Invalid session for the user.', es: 'La sesión de inicio no es válida. Vuelva a iniciar sesión.', operations: ['RespondToAuthChallenge', 'VerifySoftwareToken'] },
  { code: 'NotAuthorizedException', en: 'Temporary password has expired and must be reset by an administrator.', es: 'La contraseña temporal ha caducado. Pida al administrador que le envíe una nueva.', operations: AUTH },
  { code: 'NotAuthorizedException', en: 'User cannot be confirmed. Current status is CONFIRMED', es: 'La cuenta ya está confirmada. Inicie sesión.', operations: ['ConfirmSignUp'] },
  { code: 'NotAuthorizedException', en: 'Refresh Token has been revoked', es: SESSION_EXPIRED, operations: TOKENS },
  { code: 'NotAuthorizedException', en: 'Refresh Token has expired', es: SESSION_EXPIRED, operations: TOKENS },
  { code: 'NotAuthorizedException', en: 'Invalid Refresh Token', es: SESSION_EXPIRED, operations: TOKENS },
  { code: 'NotAuthorizedException', en: 'Access Token has been revoked', es: SESSION_EXPIRED, operations: TOKENS },
  { code: 'NotAuthorizedException', en: 'Access Token has expired', es: SESSION_EXPIRED, operations: TOKENS },
  { code: 'NotAuthorizedException', en: 'Invalid Access Token', es: SESSION_EXPIRED, operations: TOKENS },
  { code: 'NotAuthorizedException', en: null, es: 'No está autorizado para realizar esta operación.', operations: ALL },
  { code: 'UserNotFoundException', en: 'User does not exist.', es: 'No existe ninguna cuenta con ese correo electrónico.', operations: [...AUTH, 'ForgotPassword', 'ConfirmForgotPassword', 'ConfirmSignUp', 'ResendConfirmationCode'] },
  { code: 'UserNotFoundException', en: 'Username/client id combination not found.', es: 'No existe ninguna cuenta con ese correo electrónico.', operations: ['ForgotPassword', 'ResendConfirmationCode', 'ConfirmSignUp'] },
  { code: 'UserNotFoundException', en: null, es: 'No existe ninguna cuenta con ese correo electrónico.', operations: ALL },
  { code: 'UserNotConfirmedException', en: 'User is not confirmed.', es: 'La cuenta no está confirmada. Escriba el código que le enviamos por correo electrónico.', operations: [...AUTH, 'ForgotPassword'] },
  { code: 'UserNotConfirmedException', en: null, es: 'La cuenta no está confirmada.', operations: [...AUTH, 'ForgotPassword'] },
  { code: 'PasswordResetRequiredException', en: 'Password reset required for the user', es: 'Debe restablecer su contraseña. Le hemos enviado un código por correo electrónico.', operations: AUTH },
  { code: 'PasswordResetRequiredException', en: 'Password reset required', es: 'Debe restablecer su contraseña. Le hemos enviado un código por correo electrónico.', operations: AUTH },
  { code: 'PasswordResetRequiredException', en: null, es: 'Debe restablecer su contraseña.', operations: AUTH },
  // Codes: sign-up confirmation, password reset, attribute verification, TOTP.
  { code: 'CodeMismatchException', en: 'Invalid verification code provided, please try again.', es: 'Código de verificación no válido, inténtelo de nuevo.', operations: CODES },
  // The local user pool's text for every wrong code (sign-up, attribute, TOTP at sign-in and at set-up).
  { code: 'CodeMismatchException', en: 'Incorrect confirmation code', es: WRONG_CODE, operations: [...CODES, 'RespondToAuthChallenge', 'VerifySoftwareToken'] },
  { code: 'CodeMismatchException', en: 'Invalid code received for user', es: WRONG_TOTP, operations: ['RespondToAuthChallenge'] },
  { code: 'CodeMismatchException', en: 'Invalid code or auth state for the user.', es: 'Código no válido o estado de autenticación incorrecto.', operations: ['RespondToAuthChallenge'] },
  { code: 'CodeMismatchException', en: 'Your software token has already been used once.', es: 'Ese código ya se usó. Espere al siguiente código de su aplicación de autenticación.', operations: ['RespondToAuthChallenge', 'VerifySoftwareToken'] },
  { code: 'CodeMismatchException', en: null, es: WRONG_CODE, operations: [...CODES, 'RespondToAuthChallenge', 'VerifySoftwareToken'] },
  { code: 'EnableSoftwareTokenMFAException', en: 'Code mismatch', es: WRONG_TOTP, operations: ['VerifySoftwareToken'] },
  { code: 'EnableSoftwareTokenMFAException', en: null, es: WRONG_TOTP, operations: ['VerifySoftwareToken'] },
  { code: 'ExpiredCodeException', en: 'Invalid code provided, please request a code again.', es: EXPIRED_CODE, operations: CODES },
  { code: 'ExpiredCodeException', en: 'Your software token has already been used once.', es: 'Ese código ya se usó. Espere al siguiente código de su aplicación de autenticación.', operations: ['RespondToAuthChallenge'] },
  { code: 'ExpiredCodeException', en: null, es: EXPIRED_CODE, operations: [...CODES, 'RespondToAuthChallenge'] },
  { code: 'SoftwareTokenMFANotFoundException', en: null, es: 'No tiene una aplicación de autenticación configurada.', operations: ['VerifySoftwareToken', 'SetUserMFAPreference'] },
  // New passwords.
  ...policy('Password not long enough', 'debe tener al menos 8 caracteres.'),
  ...policy('Password must have lowercase characters', 'debe tener letras minúsculas.'),
  ...policy('Password must have uppercase characters', 'debe tener letras mayúsculas.'),
  ...policy('Password must have numeric characters', 'debe tener números.'),
  ...policy('Password must have symbol characters', 'debe tener caracteres especiales.'),
  { code: 'InvalidPasswordException', en: 'Invalid password', es: 'La contraseña no cumple la política de contraseñas (mínimo 8 caracteres).', operations: NEW_PASSWORD },
  { code: 'InvalidPasswordException', en: 'Password has previously been used', es: 'Esa contraseña ya se usó antes. Elija otra.', operations: NEW_PASSWORD },
  { code: 'InvalidPasswordException', en: null, es: 'La nueva contraseña no cumple la política de contraseñas (mínimo 8 caracteres).', operations: NEW_PASSWORD },
  // Parameters.
  { code: 'InvalidParameterException', en: 'Username should be an email.', es: 'Escriba una dirección de correo electrónico.', operations: ['SignUp', ...AUTH] },
  { code: 'InvalidParameterException', en: 'Invalid email address format.', es: 'La dirección de correo electrónico no es válida.', operations: ['SignUp', 'UpdateUserAttributes'] },
  { code: 'InvalidParameterException', en: 'User is already confirmed.', es: 'La cuenta ya está confirmada.', operations: ['ResendConfirmationCode'] },
  { code: 'InvalidParameterException', en: 'Cannot reset password for the user as there is no registered/verified email or phone_number', es: 'No se puede restablecer la contraseña: la cuenta no tiene un correo electrónico verificado.', operations: ['ForgotPassword'] },
  { code: 'InvalidParameterException', en: "1 validation error detected: Value at 'password' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\S]+.*[\\S]+$", es: 'La contraseña no puede empezar ni terminar con un espacio.', operations: ['SignUp', 'ConfirmForgotPassword'] },
  { code: 'InvalidParameterException', en: "1 validation error detected: Value at 'proposedPassword' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\S]+.*[\\S]+$", es: 'La contraseña no puede empezar ni terminar con un espacio.', operations: ['ChangePassword'] },
  { code: 'InvalidParameterException', en: null, es: 'Los datos enviados no son válidos.', operations: ALL },
  { code: 'UsernameExistsException', en: 'An account with the given email already exists.', es: 'Ya existe una cuenta con ese correo electrónico.', operations: ['SignUp'] },
  { code: 'UsernameExistsException', en: 'User already exists', es: 'Ya existe una cuenta con ese correo electrónico.', operations: ['SignUp'] },
  { code: 'UsernameExistsException', en: 'User account already exists', es: 'Ya existe una cuenta con ese correo electrónico.', operations: ['SignUp'] },
  { code: 'UsernameExistsException', en: null, es: 'Ya existe una cuenta con ese correo electrónico.', operations: ['SignUp'] },
  { code: 'AliasExistsException', en: 'An account with the given email already exists.', es: 'Ya existe una cuenta con ese correo electrónico.', operations: ['ConfirmSignUp', 'UpdateUserAttributes', 'VerifyUserAttribute'] },
  { code: 'AliasExistsException', en: null, es: 'Ya existe una cuenta con ese correo electrónico.', operations: ['ConfirmSignUp', 'UpdateUserAttributes', 'VerifyUserAttribute'] },
  { code: 'UnsupportedUserStateException', en: 'Resend not possible. User has already set a password.', es: 'No se puede reenviar la invitación: la cuenta ya tiene contraseña.', operations: ['ResendConfirmationCode'] },
  { code: 'UnsupportedUserStateException', en: null, es: 'La cuenta no está en un estado que permita esta operación.', operations: ['ResendConfirmationCode'] },
  // Limits and delivery.
  { code: 'LimitExceededException', en: 'Attempt limit exceeded, please try after some time.', es: TRY_LATER, operations: ALL },
  { code: 'LimitExceededException', en: null, es: TRY_LATER, operations: ALL },
  { code: 'TooManyRequestsException', en: null, es: TRY_LATER, operations: ALL },
  { code: 'TooManyFailedAttemptsException', en: null, es: TRY_LATER, operations: [...CODES, ...AUTH] },
  { code: 'CodeDeliveryFailureException', en: null, es: 'No se pudo enviar el código. Inténtelo de nuevo.', operations: SENDS },
  { code: 'InvalidEmailRoleAccessPolicyException', en: null, es: 'No se pudo enviar el correo electrónico. Póngase en contacto con el administrador.', operations: SENDS },
  // Devices.
  { code: 'ResourceNotFoundException', en: null, es: 'El dispositivo ya no existe.', operations: ['ForgetDevice', 'UpdateDeviceStatus', 'ConfirmDevice'] },
  // Configuration and the service itself.
  { code: 'UserLambdaValidationException', en: null, es: 'El servicio de identidad rechazó la operación. Póngase en contacto con el administrador.', operations: ALL },
  { code: 'UnexpectedLambdaException', en: null, es: 'El servicio de identidad no pudo completar la operación. Inténtelo de nuevo.', operations: ALL },
  { code: 'InvalidLambdaResponseException', en: null, es: 'El servicio de identidad no pudo completar la operación. Inténtelo de nuevo.', operations: ALL },
  { code: 'InvalidUserPoolConfigurationException', en: null, es: 'El servicio de identidad está mal configurado. Póngase en contacto con el administrador.', operations: ALL },
  { code: 'ForbiddenException', en: null, es: 'El servicio de identidad rechazó la solicitud.', operations: ALL },
  { code: 'InternalErrorException', en: null, es: 'Error del servicio de identidad. Inténtelo de nuevo más tarde.', operations: ALL },
  // Raised by Amplify itself (no request answered).
  { code: 'NetworkError', en: 'A network error has occurred.', es: 'No se pudo conectar con el servicio de identidad. Compruebe su conexión e inténtelo de nuevo.', operations: ALL },
  { code: 'NetworkError', en: 'Network error', es: 'No se pudo conectar con el servicio de identidad. Compruebe su conexión e inténtelo de nuevo.', operations: ALL },
  { code: 'NetworkError', en: null, es: 'No se pudo conectar con el servicio de identidad. Compruebe su conexión e inténtelo de nuevo.', operations: ALL },
  { code: 'UserUnAuthenticatedException', en: null, es: SESSION_EXPIRED, operations: ALL },
];

/** Text when nothing in the catalogue matches. */
export const UNKNOWN_COGNITO_ERROR = 'No se pudo completar la operación. Inténtelo de nuevo.';

/**
 * The Spanish text for an error `{ name, message }` received from one of `operations`: the entry with the
 * same code and message (preferring one that lists one of `operations`), else the code's entry for any
 * message (same preference), else `UNKNOWN_COGNITO_ERROR`. Never throws; any thrown value is accepted.
 */
export function cognitoErrorText(err: unknown, operations: readonly CognitoOperation[] = ALL): string {
  const name = err instanceof Error ? err.name : typeof err === 'object' && err !== null && 'name' in err ? String(err.name) : '';
  const message = err instanceof Error ? err.message : '';
  const serves = (e: CognitoErrorText) => e.operations.some((o) => operations.includes(o));
  const same = COGNITO_ERRORS.filter((e) => e.code === name && e.en === message);
  const any = COGNITO_ERRORS.filter((e) => e.code === name && e.en === null);
  return (same.find(serves) ?? same[0] ?? any.find(serves) ?? any[0])?.es ?? UNKNOWN_COGNITO_ERROR;
}

/**
 * English message → Spanish text for the sign-in widget: every entry with a message that one of
 * `SIGN_IN_OPERATIONS` can answer (the first such entry per message).
 */
export function signInErrorDictionary(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of COGNITO_ERRORS) {
    if (e.en !== null && !(e.en in out) && e.operations.some((o) => SIGN_IN_OPERATIONS.includes(o))) out[e.en] = e.es;
  }
  return out;
}

/** Adds `signInErrorDictionary()` to Amplify's Spanish dictionary (what the sign-in widget's alert shows). */
export function registerCognitoErrorTexts(): void {
  I18n.putVocabulariesForLanguage('es', signInErrorDictionary());
}
