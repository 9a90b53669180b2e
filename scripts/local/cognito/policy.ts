/**
 * Request validation the real user pool performs and cognito-local does not (cognito-local ignores the password
 * policy; docs/local-emulation.md#password-policy): the pool's password policy and the API's password constraints.
 *
 * Messages are Cognito's own (observed service responses; API reference, "InvalidPasswordException"):
 * "Password did not conform with policy: Password not long enough", "…: Password must have lowercase characters",
 * "…uppercase…", "…numeric…", "…symbol…". Symbols are the set of Cognito's docs ("Password policies").
 */

/** A user pool's `Policies.PasswordPolicy` (Cognito API shape). */
export interface PasswordPolicy {
  MinimumLength?: number;
  RequireUppercase?: boolean;
  RequireLowercase?: boolean;
  RequireNumbers?: boolean;
  RequireSymbols?: boolean;
  TemporaryPasswordValidityDays?: number;
}

/** Vigía's deployed policy (`passwordPolicy` in infra/auth-stack.ts): length ≥ 8, no character classes required. */
export const VIGIA_PASSWORD_POLICY: Required<PasswordPolicy> = {
  MinimumLength: 8,
  RequireUppercase: false,
  RequireLowercase: false,
  RequireNumbers: false,
  RequireSymbols: false,
  TemporaryPasswordValidityDays: 7,
};

/** A Cognito error as it goes on the wire: `{"__type": type, "message": message}`. */
export interface CognitoErrorShape {
  type: string;
  message: string;
}

const SYMBOLS = new Set([...'^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- ']);
/** Cognito's API constraint on password members (no leading/trailing whitespace, ≤ 256 characters). */
const PASSWORD_PATTERN = /^[\S]+.*[\S]+$/u;

/**
 * Checks `password` against the API constraints and then the pool's policy, in Cognito's order.
 * @param member the request member name used in the constraint message (`password`, `proposedPassword`, …).
 * @returns null when acceptable; otherwise the error Cognito returns: InvalidParameterException for the
 *          constraint, InvalidPasswordException for the policy.
 */
export function checkPassword(password: unknown, policy: PasswordPolicy, member = 'password'): CognitoErrorShape | null {
  if (typeof password !== 'string' || password.length > 256 || !PASSWORD_PATTERN.test(password)) {
    return {
      type: 'InvalidParameterException',
      message: `1 validation error detected: Value at '${member}' failed to satisfy constraint: Member must satisfy regular expression pattern: ^[\\S]+.*[\\S]+$`,
    };
  }
  const chars = [...password];
  const failures: [boolean | undefined, boolean, string][] = [
    [true, chars.length >= (policy.MinimumLength ?? 8), 'Password not long enough'],
    [policy.RequireLowercase, chars.some((c) => c !== c.toUpperCase()), 'Password must have lowercase characters'],
    [policy.RequireUppercase, chars.some((c) => c !== c.toLowerCase()), 'Password must have uppercase characters'],
    [policy.RequireNumbers, chars.some((c) => c >= '0' && c <= '9'), 'Password must have numeric characters'],
    [policy.RequireSymbols, chars.some((c) => SYMBOLS.has(c)), 'Password must have symbol characters'],
  ];
  for (const [required, satisfied, reason] of failures) {
    if (required && !satisfied) {
      return { type: 'InvalidPasswordException', message: `Password did not conform with policy: ${reason}` };
    }
  }
  return null;
}

/** A Cognito service error; the proxy answers it as `{"__type", "message"}` with HTTP `status` (400 by default). */
export class CognitoError extends Error implements CognitoErrorShape {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = type;
  }
}
