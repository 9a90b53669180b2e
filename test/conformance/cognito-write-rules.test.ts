/**
 * Conformance: which user attributes a caller may write (the local pool, or a deployed stage with VIGIA_TARGET),
 * driven by clients this project did not write: `amazon-cognito-identity-js` (SignUp, UpdateUserAttributes) and
 * botocore through `python3` (AdminCreateUser, AdminUpdateUserAttributes; skipped with the reason where python3 or
 * botocore is missing, and against a deployed stage, which needs an operator's IAM credentials).
 *
 * The rules (docs/local-emulation.md#user-attributes): the pool's schema (standard attributes, no custom ones),
 * the portal client's WriteAttributes (infra/user-pool-attributes.ts), `identities` written by Cognito only.
 */
import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationDetails, CognitoUser, CognitoUserAttribute, CognitoUserPool, type ISignUpResult } from 'amazon-cognito-identity-js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import { CONFORMANCE_PASSWORD, LOCAL_ONLY, conformanceTarget, type ConformanceTarget } from '../support/conformance-target.js';

const DOCS = {
  attributes: 'https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-settings-attributes.html',
  writeAttributes: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UserPoolClientType.html',
  signUp: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_SignUp.html',
  updateUserAttributes: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_UpdateUserAttributes.html',
  adminCreateUser: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminCreateUser.html',
  adminUpdateUserAttributes: 'https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_AdminUpdateUserAttributes.html',
} as const;

/** What a self-registered attacker would claim: a link to Acme's identity provider (bound to tenant acme). */
const ACME_IDENTITIES = JSON.stringify([{ userId: 'attacker', providerName: 'AcmeIdP', providerType: 'OIDC', issuer: null, primary: 'true', dateCreated: '1700000000000' }]);
const UNAUTHORIZED = { code: 'NotAuthorizedException', message: 'A client attempted to write unauthorized attribute' };
const schemaError = (name: string) => ({ code: 'InvalidParameterException', message: `Attributes did not conform to the schema: Type for attribute {${name}} could not be determined` });

let target: ConformanceTarget;
let pool: CognitoUserPool;

beforeAll(async () => {
  target = await conformanceTarget();
  pool = new CognitoUserPool({ UserPoolId: target.userPoolId, ClientId: target.clientId, ...(target.cognitoEndpoint ? { endpoint: target.cognitoEndpoint } : {}) });
});
afterAll(async () => {
  await target?.stop();
});

type ServiceError = Error & { code?: string };
const failure = (e: unknown) => ({ code: (e as ServiceError).code, message: (e as Error).message });

function signUp(email: string, attributes: Record<string, string>): Promise<ISignUpResult> {
  const list = [new CognitoUserAttribute({ Name: 'email', Value: email }), ...Object.entries(attributes).map(([Name, Value]) => new CognitoUserAttribute({ Name, Value }))];
  return new Promise((resolve, reject) => pool.signUp(email, CONFORMANCE_PASSWORD, list, [], (err, out) => (err ? reject(err) : resolve(out!))));
}

function signIn(email: string, password: string): Promise<CognitoUser> {
  const user = new CognitoUser({ Username: email, Pool: pool });
  return new Promise((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: email, Password: password }), {
      onSuccess: () => resolve(user),
      onFailure: reject,
      newPasswordRequired: () => reject(new Error('unexpected NEW_PASSWORD_REQUIRED')),
    }),
  );
}

function updateAttributes(user: CognitoUser, attributes: Record<string, string>): Promise<string> {
  const list = Object.entries(attributes).map(([Name, Value]) => new CognitoUserAttribute({ Name, Value }));
  return new Promise((resolve, reject) => user.updateAttributes(list, (err, out) => (err ? reject(err) : resolve(String(out)))));
}

function attributesOf(user: CognitoUser): Promise<Record<string, string>> {
  return new Promise((resolve, reject) =>
    user.getUserAttributes((err, out) => (err ? reject(err) : resolve(Object.fromEntries((out ?? []).map((a) => [a.getName(), a.getValue()]))))),
  );
}

describe('SignUp with amazon-cognito-identity-js', () => {
  const skipUnlessSignUp = (ctx: { skip: (why: string) => void }) => {
    if (!target.selfSignUp) ctx.skip('the stage does not allow self sign-up (config.json allowSignUp: false)');
  };

  it(`refuses identities: only Cognito writes it (NotAuthorizedException; ${DOCS.attributes}, ${DOCS.signUp})`, async (ctx) => {
    skipUnlessSignUp(ctx);
    const email = `intruso-${randomUUID().slice(0, 8)}@example.com`;
    await expect(signUp(email, { identities: ACME_IDENTITIES }).catch(failure)).resolves.toEqual(UNAUTHORIZED);
  });

  it(`refuses email_verified: the client may not write it (NotAuthorizedException; ${DOCS.writeAttributes})`, async (ctx) => {
    skipUnlessSignUp(ctx);
    const email = `verificado-${randomUUID().slice(0, 8)}@example.com`;
    await expect(signUp(email, { email_verified: 'true' }).catch(failure)).resolves.toEqual(UNAUTHORIZED);
  });

  it(`refuses custom:tenant: the pool declares no custom attribute (InvalidParameterException; ${DOCS.attributes})`, async (ctx) => {
    skipUnlessSignUp(ctx);
    const email = `inquilino-${randomUUID().slice(0, 8)}@example.com`;
    await expect(signUp(email, { 'custom:tenant': 'acme' }).catch(failure)).resolves.toEqual(schemaError('custom:tenant'));
  });

  it(`a refused sign-up stores nothing: the address can then register cleanly (${DOCS.signUp})`, async (ctx) => {
    skipUnlessSignUp(ctx);
    const email = `limpio-${randomUUID().slice(0, 8)}@example.com`;
    await expect(signUp(email, { identities: ACME_IDENTITIES }).catch(failure)).resolves.toEqual(UNAUTHORIZED);
    const ok = await signUp(email, {});
    expect(ok.userConfirmed).toBe(false);
  });
});

describe('UpdateUserAttributes with amazon-cognito-identity-js', () => {
  it(`refuses identities, email_verified and custom:tenant on a signed-in user; the user keeps its attributes (${DOCS.updateUserAttributes})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD (a confirmed user of the stage)');
    const user = await signIn(target.user.email, target.user.password);
    const before = await attributesOf(user);
    await expect(updateAttributes(user, { identities: ACME_IDENTITIES }).catch(failure)).resolves.toEqual(UNAUTHORIZED);
    await expect(updateAttributes(user, { email_verified: 'false' }).catch(failure)).resolves.toEqual(UNAUTHORIZED);
    await expect(updateAttributes(user, { 'custom:tenant': 'globex' }).catch(failure)).resolves.toEqual(schemaError('custom:tenant'));
    expect(await attributesOf(user)).toEqual(before);
    expect(before).not.toHaveProperty('identities');
  });

  it(`accepts an attribute the client may write (${DOCS.writeAttributes})`, async (ctx) => {
    if (!target.user) return ctx.skip('set VIGIA_TEST_EMAIL and VIGIA_TEST_PASSWORD');
    const user = await signIn(target.user.email, target.user.password);
    await updateAttributes(user, { locale: 'es-ES' });
    expect((await attributesOf(user)).locale).toBe('es-ES');
  });
});

/** botocore's cognito-idp client (its own JSON protocol and SigV4 signer), with the local operator key. */
const BOTOCORE_SCRIPT = `
import json, sys
import botocore.session
args = json.loads(sys.argv[1])
client = botocore.session.get_session().create_client(
    'cognito-idp', region_name=args['region'], endpoint_url=args['endpoint'],
    aws_access_key_id=args['key'], aws_secret_access_key=args['secret'])
try:
    getattr(client, args['operation'])(**args['params'])
    print(json.dumps({'ok': True}))
except client.exceptions.ClientError as e:
    print(json.dumps({'ok': False, 'code': e.response['Error']['Code'], 'message': e.response['Error']['Message']}))
`;

function botocoreAvailable(): string | null {
  const probe = spawnSync('python3', ['-c', 'import botocore'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  if (probe.status !== 0) return 'botocore is not installed for python3 (pip install boto3)';
  return null;
}

/** Runs one botocore call asynchronously (the local pool answers from this same process). */
async function botocore(operation: string, params: Record<string, unknown>): Promise<{ ok: boolean; code?: string; message?: string }> {
  const args = { region: target.region, endpoint: target.cognitoEndpoint, key: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secret: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey, operation, params };
  const { stdout } = await promisify(execFile)('python3', ['-c', BOTOCORE_SCRIPT, JSON.stringify(args)], { encoding: 'utf8' });
  return JSON.parse(stdout.trim()) as { ok: boolean; code?: string; message?: string };
}

describe('administrative writes with botocore', () => {
  const skipUnlessLocalBotocore = (ctx: { skip: (why: string) => void }): boolean => {
    if (target.kind !== 'local') {
      ctx.skip(`${LOCAL_ONLY}; an operator's IAM credentials`);
      return false;
    }
    const missing = botocoreAvailable();
    if (missing) {
      ctx.skip(`${missing}: the botocore half of the attribute rules is skipped`);
      return false;
    }
    return true;
  };

  it(`AdminCreateUser: refuses identities and custom:tenant, accepts email_verified (${DOCS.adminCreateUser})`, async (ctx) => {
    if (!skipUnlessLocalBotocore(ctx)) return;
    const create = (email: string, extra: Array<{ Name: string; Value: string }>) =>
      botocore('admin_create_user', { UserPoolId: target.userPoolId, Username: email, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: email }, ...extra] });
    const tag = randomUUID().slice(0, 8);
    const identities = await create(`federado-${tag}@example.com`, [{ Name: 'identities', Value: ACME_IDENTITIES }]);
    expect([identities.ok, identities.code]).toEqual([false, 'InvalidParameterException']);
    expect(identities.message).toContain('identities');
    const custom = await create(`custom-${tag}@example.com`, [{ Name: 'custom:tenant', Value: 'acme' }]);
    expect({ code: custom.code, message: custom.message }).toEqual(schemaError('custom:tenant'));
    // An administrator may mark the address verified (what the invitation flow does).
    expect(await create(`invitado-${tag}@example.com`, [{ Name: 'email_verified', Value: 'true' }])).toEqual({ ok: true });
    // Nothing was stored for the refused ones: the same address can be created now.
    expect(await create(`federado-${tag}@example.com`, [])).toEqual({ ok: true });
  });

  it(`AdminUpdateUserAttributes: refuses identities and custom:tenant (${DOCS.adminUpdateUserAttributes})`, async (ctx) => {
    if (!skipUnlessLocalBotocore(ctx)) return;
    const update = (attrs: Array<{ Name: string; Value: string }>) =>
      botocore('admin_update_user_attributes', { UserPoolId: target.userPoolId, Username: target.user!.email, UserAttributes: attrs });
    expect((await update([{ Name: 'identities', Value: ACME_IDENTITIES }])).code).toBe('InvalidParameterException');
    const custom = await update([{ Name: 'custom:tenant', Value: 'acme' }]);
    expect({ code: custom.code, message: custom.message }).toEqual(schemaError('custom:tenant'));
  });
});
