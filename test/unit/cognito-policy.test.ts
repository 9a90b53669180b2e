/** Password policy of the local user pool (scripts/local/cognito/policy.ts; docs/platform.md#cognito-user-pool, Cognito's messages). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPassword, VIGIA_PASSWORD_POLICY } from '../../scripts/local/cognito/policy.js';

const STRICT = { MinimumLength: 10, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true };

describe('checkPassword', () => {
  it("accepts 8+ characters of any class under Vigía's policy", () => {
    expect(checkPassword('ocho-car', VIGIA_PASSWORD_POLICY)).toBeNull();
    expect(checkPassword('abcdefgh', VIGIA_PASSWORD_POLICY)).toBeNull();
    expect(checkPassword('contraseña con espacios', VIGIA_PASSWORD_POLICY)).toBeNull();
  });

  it('rejects fewer than 8 characters (code points) with Cognito\'s message', () => {
    expect(checkPassword('siete77', VIGIA_PASSWORD_POLICY)).toEqual({
      type: 'InvalidPasswordException',
      message: 'Password did not conform with policy: Password not long enough',
    });
    expect(checkPassword('ñññññññ', VIGIA_PASSWORD_POLICY)?.type).toBe('InvalidPasswordException');
  });

  it('rejects leading/trailing whitespace, > 256 characters and non-strings as invalid parameters', () => {
    expect(checkPassword(' espacio-antes', VIGIA_PASSWORD_POLICY, 'proposedPassword')).toEqual({
      type: 'InvalidParameterException',
      message:
        "1 validation error detected: Value at 'proposedPassword' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\S]+.*[\\S]+$",
    });
    expect(checkPassword('espacio-despues ', VIGIA_PASSWORD_POLICY)?.type).toBe('InvalidParameterException');
    expect(checkPassword('a'.repeat(257), VIGIA_PASSWORD_POLICY)?.type).toBe('InvalidParameterException');
    expect(checkPassword(undefined, VIGIA_PASSWORD_POLICY)?.type).toBe('InvalidParameterException');
  });

  it('checks character classes in Cognito order when a policy requires them', () => {
    const reason = (p: string) => checkPassword(p, STRICT)?.message.replace('Password did not conform with policy: ', '');
    expect(reason('Aa1!')).toBe('Password not long enough');
    expect(reason('AAAAAAAAAA1!')).toBe('Password must have lowercase characters');
    expect(reason('aaaaaaaaaa1!')).toBe('Password must have uppercase characters');
    expect(reason('aaaaaaaaaA!!')).toBe('Password must have numeric characters');
    expect(reason('aaaaaaaaaA11')).toBe('Password must have symbol characters');
    expect(reason('aaaaaaaaaA1^')).toBeUndefined();
    expect(reason('aaaaaaa aA1b')).toBeUndefined(); // space counts as a symbol
  });

  it('never rejects a trimmed password of 8..256 characters under Vigía\'s policy', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 200, unit: 'grapheme-ascii' }), (s) => {
        fc.pre(/^\S/.test(s) && /\S$/.test(s) && !/[\n\r]/.test(s));
        expect(checkPassword(s, VIGIA_PASSWORD_POLICY)).toBeNull();
      }),
    );
  });
});
