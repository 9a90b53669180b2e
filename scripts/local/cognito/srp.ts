/**
 * Server side of Amazon Cognito's SRP-6a variant (the `USER_SRP_AUTH` flow and its `PASSWORD_VERIFIER`
 * challenge), written for the local user pool because cognito-local answers `USER_SRP_AUTH` with HTTP 500
 * (docs/local-emulation.md#srp-sign-in).
 *
 * Parameters, as the Amplify v6 client uses them (`@aws-amplify/auth` …/providers/cognito/utils/srp):
 *  - group: the 3072-bit MODP prime of RFC 3526 §4, generator g = 2, multiplier k = H(pad(N) | pad(g));
 *  - H = SHA-256 over the BYTES of a concatenation of "padded hex" strings. `padHex` renders a positive
 *    integer as even-length hex with a leading `00` when the top bit is set (Java `BigInteger#toByteArray`);
 *  - u = H(pad(A) | pad(B)); x = H(pad(salt) | hex(SHA-256(utf8(poolName + userIdForSrp + ":" + password))));
 *    poolName is the part of the user pool id after `_` (`local_vigia` → `vigia`);
 *  - server: v = g^x, B = k·v + g^b (mod N), S = (A · v^u)^b (mod N);
 *  - key: HKDF-SHA256 with salt = bytes(pad(u)), IKM = bytes(pad(S)), info = "Caldera Derived Key" | 0x01,
 *    first 16 bytes of the first output block;
 *  - PASSWORD_CLAIM_SIGNATURE = base64(HMAC-SHA256(key, utf8(poolName) | utf8(userIdForSrp) |
 *    SECRET_BLOCK bytes | utf8(TIMESTAMP))), TIMESTAMP formatted like `Tue Mar 3 09:05:07 UTC 2026`.
 *
 * Only positive integers occur, so the two's-complement branch of Amplify's padding is not needed.
 * All functions are pure except the random draws in {@link createSrpChallenge}.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 3526 §4 3072-bit MODP group prime (the value Amplify calls INIT_N). */
export const N = BigInt(
  '0x' +
    'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
    'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
    'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
    '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
    'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
    '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
    'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
    'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF',
);
/** Generator of the group. */
export const g = 2n;

/** Even-length hex of a non-negative integer, prefixed with `00` when its top bit is set. */
export function padHex(n: bigint): string {
  if (n < 0n) throw new RangeError('padHex: negative values do not occur in Cognito SRP');
  let hex = n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return /^[89a-f]/.test(hex) ? `00${hex}` : hex;
}

/** SHA-256 of the bytes a hex string encodes, as 64 lowercase hex characters. */
export function hashHex(hex: string): string {
  return createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex');
}

/** Modular exponentiation (square-and-multiply) on BigInt. */
export function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = ((base % modulus) + modulus) % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    e >>= 1n;
    b = (b * b) % modulus;
  }
  return result;
}

/** k = H(pad(N) | pad(g)). */
export const k = BigInt(`0x${hashHex(padHex(N) + padHex(g))}`);

/** Pool name used in the SRP hashes: the user pool id after its first `_` (Amplify: `userPoolId.split('_')[1]`). */
export function poolNameFromUserPoolId(userPoolId: string): string {
  return userPoolId.split('_')[1] ?? '';
}

/** Private key x of a user (see module doc). `salt` is the value sent as SALT (hex), parsed as an integer. */
export function computeX(poolName: string, userIdForSrp: string, password: string, salt: bigint): bigint {
  const inner = createHash('sha256').update(`${poolName}${userIdForSrp}:${password}`, 'utf8').digest('hex');
  return BigInt(`0x${hashHex(padHex(salt) + inner)}`);
}

/** u = H(pad(A) | pad(B)). */
export function computeU(A: bigint, B: bigint): bigint {
  return BigInt(`0x${hashHex(padHex(A) + padHex(B))}`);
}

/** 16-byte password authentication key from S and u (HKDF, info "Caldera Derived Key"). */
export function deriveKey(S: bigint, u: bigint): Buffer {
  const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex')).update(Buffer.from(padHex(S), 'hex')).digest();
  const info = Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])]);
  return createHmac('sha256', prk).update(info).digest().subarray(0, 16);
}

/** Expected PASSWORD_CLAIM_SIGNATURE (standard base64) for the given key and claim inputs. */
export function claimSignature(
  key: Buffer,
  poolName: string,
  userIdForSrp: string,
  secretBlock: Buffer,
  timestamp: string,
): string {
  return createHmac('sha256', key)
    .update(Buffer.concat([Buffer.from(poolName, 'utf8'), Buffer.from(userIdForSrp, 'utf8'), secretBlock, Buffer.from(timestamp, 'utf8')]))
    .digest('base64');
}

/** Server state of one PASSWORD_VERIFIER challenge. Keep it server-side; only the `challengeParameters` leave. */
export interface SrpChallenge {
  poolName: string;
  userIdForSrp: string;
  A: bigint;
  B: bigint;
  b: bigint;
  salt: bigint;
  v: bigint;
  secretBlock: Buffer;
  /** ChallengeParameters as Cognito returns them: SALT, SRP_B (hex), SECRET_BLOCK (base64), USER_ID_FOR_SRP, USERNAME. */
  challengeParameters: Record<'SALT' | 'SRP_B' | 'SECRET_BLOCK' | 'USER_ID_FOR_SRP' | 'USERNAME', string>;
}

/**
 * Starts a PASSWORD_VERIFIER challenge for a client value A (hex, as sent in `SRP_A`).
 * @throws RangeError when SRP_A is not hex or A ≡ 0 (mod N) (Cognito rejects such A as an invalid parameter).
 */
export function createSrpChallenge(input: {
  userPoolId: string;
  userIdForSrp: string;
  password: string;
  srpA: string;
}): SrpChallenge {
  if (!/^[0-9a-fA-F]+$/.test(input.srpA)) throw new RangeError('SRP_A is not a hexadecimal integer');
  const A = BigInt(`0x${input.srpA}`);
  if (A % N === 0n) throw new RangeError('SRP_A mod N cannot be 0');
  const poolName = poolNameFromUserPoolId(input.userPoolId);
  const salt = BigInt(`0x${randomBytes(16).toString('hex')}`);
  const v = modPow(g, computeX(poolName, input.userIdForSrp, input.password, salt), N);
  let b = 0n;
  let B = 0n;
  while (B % N === 0n) {
    b = BigInt(`0x${randomBytes(128).toString('hex')}`);
    B = (k * v + modPow(g, b, N)) % N;
  }
  const secretBlock = randomBytes(64);
  return {
    poolName,
    userIdForSrp: input.userIdForSrp,
    A,
    B,
    b,
    salt,
    v,
    secretBlock,
    challengeParameters: {
      SALT: salt.toString(16),
      SRP_B: B.toString(16),
      SECRET_BLOCK: secretBlock.toString('base64'),
      USER_ID_FOR_SRP: input.userIdForSrp,
      USERNAME: input.userIdForSrp,
    },
  };
}

/**
 * True when `signature` (PASSWORD_CLAIM_SIGNATURE, base64) proves knowledge of the password the challenge was
 * created with. Constant-time comparison; never throws on malformed input (returns false).
 */
export function verifyPasswordClaim(challenge: SrpChallenge, timestamp: string, signature: string): boolean {
  const u = computeU(challenge.A, challenge.B);
  if (u === 0n) return false;
  const S = modPow(challenge.A * modPow(challenge.v, u, N), challenge.b, N);
  const expected = Buffer.from(
    claimSignature(deriveKey(S, u), challenge.poolName, challenge.userIdForSrp, challenge.secretBlock, timestamp),
    'base64',
  );
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const TIMESTAMP_RE =
  /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([1-9]|[12]\d|3[01]) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d) UTC (\d{4})$/;

/**
 * Parses the PASSWORD_VERIFIER TIMESTAMP (`EEE MMM d HH:mm:ss 'UTC' yyyy`, day without padding, as Amplify's
 * getNowString and the Cognito docs use). Returns epoch ms, or null when the format is wrong.
 */
export function parseSrpTimestamp(timestamp: string): number | null {
  const m = TIMESTAMP_RE.exec(timestamp);
  if (!m) return null;
  const ms = Date.parse(`${m[3]} ${m[2]} ${m[7]} ${m[4]}:${m[5]}:${m[6]} UTC`);
  return Number.isNaN(ms) ? null : ms;
}
