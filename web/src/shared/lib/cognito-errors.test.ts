import { describe, expect, it } from 'vitest';
import { I18n } from 'aws-amplify/utils';
import { translations } from '@aws-amplify/ui-react';
import {
  ACCOUNT_OPERATIONS,
  COGNITO_ERRORS,
  cognitoErrorText,
  registerCognitoErrorTexts,
  SIGN_IN_OPERATIONS,
  signInErrorDictionary,
  UNKNOWN_COGNITO_ERROR,
} from './cognito-errors';
import { ES_OVERRIDES, loadCognitoErrorTexts, setUpSpanish } from './i18n';

const err = (name: string, message: string) => Object.assign(new Error(message), { name });

/** Words that only appear in an English sentence (a Spanish text containing one was not translated). */
const ENGLISH = /\b(the|is|are|not|please|password|code|user|invalid|incorrect|account|exceeded|again)\b/i;

describe('the Cognito error catalogue', () => {
  it('has a Spanish text for every entry, and no entry left in English', () => {
    for (const e of COGNITO_ERRORS) {
      expect(e.es, `${e.code}: ${e.en}`).not.toBe('');
      expect(e.es, `${e.code}: ${e.en}`).not.toMatch(ENGLISH);
      expect(e.operations.length, `${e.code}: ${e.en}`).toBeGreaterThan(0);
      expect(e.code).toMatch(/^[A-Z][A-Za-z]+$/);
    }
  });

  it('lists each code + message + operation once (no two texts for the same error)', () => {
    const seen = new Map<string, string>();
    for (const e of COGNITO_ERRORS)
      for (const op of e.operations) {
        const key = `${e.code}|${e.en}|${op}`;
        expect(seen.get(key), key).toBeUndefined();
        seen.set(key, e.es);
      }
  });

  it('maps the texts seen in English in Spanish mode', () => {
    // Real Cognito's wrong TOTP at sign-in, and the local pool's wrong code.
    expect(cognitoErrorText(err('CodeMismatchException', 'Invalid code received for user'), SIGN_IN_OPERATIONS)).toMatch(/^El código no es correcto\./);
    expect(cognitoErrorText(err('CodeMismatchException', 'Incorrect confirmation code'), SIGN_IN_OPERATIONS)).toMatch(/^El código no es correcto\./);
    const dict = signInErrorDictionary();
    expect(dict['Invalid code received for user']).toMatch(/^El código no es correcto\./);
    expect(dict['Incorrect confirmation code']).toMatch(/^El código no es correcto\./);
    expect(dict['Incorrect username or password.']).toBe('Correo electrónico o contraseña incorrectos.');
    expect(dict['Password attempts exceeded']).toMatch(/^Se superó el número de intentos de contraseña/);
  });

  it('covers every error code Cognito documents for the operations the portal calls', () => {
    const codes = new Set(COGNITO_ERRORS.map((e) => e.code));
    for (const code of [
      'NotAuthorizedException', 'UserNotFoundException', 'UserNotConfirmedException', 'PasswordResetRequiredException',
      'CodeMismatchException', 'ExpiredCodeException', 'EnableSoftwareTokenMFAException', 'SoftwareTokenMFANotFoundException',
      'InvalidPasswordException', 'InvalidParameterException', 'UsernameExistsException', 'AliasExistsException',
      'LimitExceededException', 'TooManyRequestsException', 'TooManyFailedAttemptsException', 'CodeDeliveryFailureException',
      'ResourceNotFoundException', 'UserLambdaValidationException', 'UnexpectedLambdaException', 'InvalidLambdaResponseException',
      'InvalidUserPoolConfigurationException', 'InternalErrorException', 'ForbiddenException', 'NetworkError',
    ])
      expect(codes.has(code), code).toBe(true);
    // Every code has a text for messages the catalogue does not know.
    for (const code of codes) expect(COGNITO_ERRORS.some((e) => e.code === code && e.en === null), code).toBe(true);
  });

  it('looks up by message, preferring the caller’s operations, then by code, then the generic text', () => {
    const wrong = err('NotAuthorizedException', 'Incorrect username or password.');
    expect(cognitoErrorText(wrong, SIGN_IN_OPERATIONS)).toBe('Correo electrónico o contraseña incorrectos.');
    expect(cognitoErrorText(wrong, ACCOUNT_OPERATIONS)).toBe('La contraseña actual no es correcta.');
    expect(cognitoErrorText(err('InvalidPasswordException', 'Password did not conform with policy: Password not long enough'))).toBe(
      'La contraseña no cumple la política de contraseñas: debe tener al menos 8 caracteres.',
    );
    expect(cognitoErrorText(err('CodeMismatchException', 'something new'), ['ConfirmSignUp'])).toBe('El código no es correcto. Compruébelo e inténtelo de nuevo.');
    expect(cognitoErrorText(err('SomethingElseException', 'x'))).toBe(UNKNOWN_COGNITO_ERROR);
    expect(cognitoErrorText('not an error')).toBe(UNKNOWN_COGNITO_ERROR);
  });

  it('puts the sign-in texts in Amplify’s Spanish dictionary, without overriding the label overrides', async () => {
    setUpSpanish('es');
    await loadCognitoErrorTexts();
    expect(I18n.get('Invalid code received for user')).toMatch(/^El código no es correcto\./);
    expect(I18n.get('Incorrect confirmation code')).toMatch(/^El código no es correcto\./);
    expect(I18n.get('Show password')).toBe('Mostrar contraseña');
    registerCognitoErrorTexts();
    for (const key of Object.keys(signInErrorDictionary())) expect(ES_OVERRIDES[key], key).toBeUndefined();
    // Amplify's own Spanish has some Cognito messages; where it has, the catalogue's text wins.
    expect((translations.es as Record<string, string>)['Incorrect username or password.']).toBeDefined();
    expect(I18n.get('Incorrect username or password.')).toBe('Correo electrónico o contraseña incorrectos.');
  });
});
