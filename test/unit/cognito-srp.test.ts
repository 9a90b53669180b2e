/**
 * The local user pool's SRP server (scripts/local/cognito/srp.ts) against Amplify v6's own client-side SRP
 * code (the helpers `signIn` uses), loaded from the installed @aws-amplify/auth by file path because the
 * package does not export them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  N,
  computeU,
  createSrpChallenge,
  g,
  modPow,
  padHex,
  parseSrpTimestamp,
  poolNameFromUserPoolId,
  verifyPasswordClaim,
} from '../../scripts/local/cognito/srp.js';

interface AmplifyBigInteger {
  toString(radix: number): string;
}
interface AmplifyHelper {
  A: AmplifyBigInteger;
  getPasswordAuthenticationKey(input: {
    username: string;
    password: string;
    serverBValue: AmplifyBigInteger;
    salt: AmplifyBigInteger;
  }): Promise<Uint8Array>;
}
interface AmplifySrp {
  getAuthenticationHelper(poolName: string): Promise<AmplifyHelper>;
  getNowString(): string;
  getSignatureString(input: {
    userPoolName: string;
    username: string;
    challengeParameters: Record<string, string>;
    dateNow: string;
    hkdf: Uint8Array;
  }): string;
}
type BigIntegerCtor = new (value: string, radix: number) => AmplifyBigInteger;

let srp: AmplifySrp;
let BigInteger: BigIntegerCtor;

beforeAll(async () => {
  const require = createRequire(import.meta.url);
  const amplifyDir = dirname(require.resolve('aws-amplify/package.json'));
  const authDir = dirname(require.resolve('@aws-amplify/auth/package.json', { paths: [amplifyDir] }));
  const srpDir = join(authDir, 'dist/esm/providers/cognito/utils/srp');
  srp = (await import(pathToFileURL(join(srpDir, 'index.mjs')).href)) as AmplifySrp;
  BigInteger = ((await import(pathToFileURL(join(srpDir, 'BigInteger/BigInteger.mjs')).href)) as { default: BigIntegerCtor })
    .default;
});

const USER_POOL_ID = 'local_vigia';
const USER_ID = '6f1c2b1e-8d44-4f0e-9a51-3d2f2b6a9c10';

/** Runs Amplify's client half of PASSWORD_VERIFIER against a fresh server challenge. */
async function clientClaim(serverPassword: string, clientPassword: string) {
  const poolName = poolNameFromUserPoolId(USER_POOL_ID);
  const helper = await srp.getAuthenticationHelper(poolName);
  const challenge = createSrpChallenge({
    userPoolId: USER_POOL_ID,
    userIdForSrp: USER_ID,
    password: serverPassword,
    srpA: helper.A.toString(16),
  });
  const params = challenge.challengeParameters;
  const hkdf = await helper.getPasswordAuthenticationKey({
    username: params.USER_ID_FOR_SRP,
    password: clientPassword,
    serverBValue: new BigInteger(params.SRP_B, 16),
    salt: new BigInteger(params.SALT, 16),
  });
  const timestamp = srp.getNowString();
  const signature = srp.getSignatureString({
    userPoolName: poolName,
    username: params.USER_ID_FOR_SRP,
    challengeParameters: params,
    dateNow: timestamp,
    hkdf,
  });
  return { challenge, timestamp, signature };
}

describe('Cognito SRP-6a server', () => {
  it('accepts the claim Amplify computes with the right password', async () => {
    for (let i = 0; i < 3; i++) {
      const { challenge, timestamp, signature } = await clientClaim('correct horse 8', 'correct horse 8');
      expect(verifyPasswordClaim(challenge, timestamp, signature)).toBe(true);
    }
  });

  it('rejects the claim computed with a wrong password', async () => {
    const { challenge, timestamp, signature } = await clientClaim('correct horse 8', 'correct horse 9');
    expect(verifyPasswordClaim(challenge, timestamp, signature)).toBe(false);
  });

  it('rejects a right claim replayed with another timestamp or garbage signature', async () => {
    const { challenge, timestamp, signature } = await clientClaim('pässwörd ñ 8', 'pässwörd ñ 8');
    expect(verifyPasswordClaim(challenge, timestamp, signature)).toBe(true);
    expect(verifyPasswordClaim(challenge, timestamp.replace(/\d{4}$/, '1999'), signature)).toBe(false);
    expect(verifyPasswordClaim(challenge, timestamp, 'not base64 at all')).toBe(false);
  });

  it('rejects SRP_A that is 0 mod N or not hex', () => {
    const base = { userPoolId: USER_POOL_ID, userIdForSrp: USER_ID, password: 'x' };
    expect(() => createSrpChallenge({ ...base, srpA: N.toString(16) })).toThrow(RangeError);
    expect(() => createSrpChallenge({ ...base, srpA: 'xyz' })).toThrow(RangeError);
  });

  it('pads hex like Java BigInteger#toByteArray (Amplify getPaddedHex)', () => {
    expect(padHex(20n)).toBe('14');
    expect(padHex(236n)).toBe('00ec');
    expect(padHex(0xfffn)).toBe('0fff');
    expect(padHex(0x8000n)).toBe('008000');
  });

  it('computes modPow and u consistently', () => {
    expect(modPow(3n, 200n, 1000007n)).toBe(3n ** 200n % 1000007n);
    const A = modPow(g, 12345n, N);
    expect(computeU(A, A)).toBeGreaterThan(0n);
  });

  it('derives the pool name like Amplify (part after "_")', () => {
    expect(poolNameFromUserPoolId('local_vigia')).toBe('vigia');
    expect(poolNameFromUserPoolId('us-east-1_AbC123')).toBe('AbC123');
  });

  it('parses the TIMESTAMP format Amplify sends and rejects others', () => {
    const now = srp.getNowString();
    const parsed = parseSrpTimestamp(now);
    expect(parsed).not.toBeNull();
    expect(Math.abs((parsed ?? 0) - Date.now())).toBeLessThan(5_000);
    expect(parseSrpTimestamp('Tue Mar 3 09:05:07 UTC 2026')).toBe(Date.UTC(2026, 2, 3, 9, 5, 7));
    expect(parseSrpTimestamp('2026-03-03T09:05:07Z')).toBeNull();
    expect(parseSrpTimestamp('Tue Mar 03 09:05:07 UTC 2026')).toBeNull();
  });
});
