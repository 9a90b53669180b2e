import { describe, expect, it } from 'vitest';
import { passwordsMustMatch, required, tooShort, validatePasswordChange } from './passwordChange';

const v = (current: string, next: string, confirm: string) => ({ current, next, confirm });

describe('validatePasswordChange', () => {
  it('shows nothing for untouched fields, every required error on submit', () => {
    expect(validatePasswordChange(v('', '', ''), {})).toEqual({});
    expect(validatePasswordChange(v('', '', ''), {}, true)).toEqual({ current: required(), next: required(), confirm: required() });
  });

  it('needs 8 characters in the new password', () => {
    expect(validatePasswordChange(v('x', 'corta', 'corta'), { next: true })).toEqual({ next: tooShort(8) });
    expect(validatePasswordChange(v('x', '12345678', '12345678'), { next: true, confirm: true })).toEqual({});
  });

  it('"must match" once both are touched, or once both have at least 6 characters', () => {
    expect(validatePasswordChange(v('x', 'abcde', 'abcdx'), { next: true })).toEqual({ next: tooShort(8) });
    expect(validatePasswordChange(v('x', 'abcdefghi', 'abcdx'), {})).toEqual({});
    expect(validatePasswordChange(v('x', 'abcdefghi', 'abcdx'), { next: true, confirm: true }).confirm).toBe(passwordsMustMatch());
    expect(validatePasswordChange(v('x', 'abcdefghi', 'abcdefx'), {}).confirm).toBe(passwordsMustMatch());
    expect(validatePasswordChange(v('x', 'abcdefghi', 'abcdefghi'), {})).toEqual({});
  });

  it('does not trim passwords', () => {
    expect(validatePasswordChange(v('x', 'abcdefgh ', 'abcdefgh'), {}).confirm).toBe(passwordsMustMatch());
  });
});
