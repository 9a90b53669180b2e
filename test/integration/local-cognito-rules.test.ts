/**
 * Cognito's rules in the local user pool, on the local stack with federation (Acme's identity provider bound to
 * tenant `acme`) and the access-request audit (docs/local-emulation.md#user-attributes and
 * #pre-token-generation-event):
 *  - the attack cognito-local allowed: a self-registered user claiming a link to Acme's identity provider
 *    (`identities`), whom the trigger would put in `acme`, is refused at SignUp and at UpdateUserAttributes, and such a
 *    user reads nothing of Acme's;
 *  - the trigger's event carries the user's groups: a sign-in of a user WITH a group is not an access request, one
 *    of a user in no group is exactly one, and a refresh is none;
 *  - the ID token's `email_verified` is the pool's attribute (false for an unverified address).
 */
import { randomUUID } from 'node:crypto';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  GetTokensFromRefreshTokenCommand,
  ListUsersCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTenantAudit } from '../../lambdas/data/audit.js';
import { STAFF_AUDIT_TENANT } from '../../lambdas/domain/audit.js';
import { FIXED_CODE } from '../../scripts/local/cognito/index.js';
import { signInWithSrp } from '../../scripts/local/cognito/sign-in.js';
import type { RunningLocalStack } from '../../scripts/local/stack.js';
import { operatorClient } from '../support/conformance-target.js';
import { startFederationStack, type FederationStack } from '../support/federation.js';

let fed: FederationStack;
let stack: RunningLocalStack;
let admin: CognitoIdentityProviderClient;
let pub: CognitoIdentityProviderClient;
const PASSWORD = 'reglas-locales-8';

beforeAll(async () => {
  fed = await startFederationStack('vigia-cognito-rules-');
  stack = fed.stack;
  admin = operatorClient(stack.urls.cognito, stack.config.region);
  // Public operations: no credentials are needed (nor sent).
  pub = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: stack.config.region });
}, 180_000);
afterAll(async () => {
  admin?.destroy();
  pub?.destroy();
  await fed?.stop();
});

const ids = () => ({ userPoolId: stack.config.userPoolId, clientId: stack.config.userPoolClientId });
const ACME_LINK = JSON.stringify([{ userId: 'intruso', providerName: 'AcmeIdP', providerType: 'OIDC', issuer: null, primary: 'true', dateCreated: '1700000000000' }]);
const errorOf = async (p: Promise<unknown>): Promise<{ name: string; message: string }> =>
  p.then(
    () => ({ name: 'accepted', message: '' }),
    (e: Error) => ({ name: e.name, message: e.message }),
  );
const usersWithEmail = async (email: string) =>
  (await admin.send(new ListUsersCommand({ UserPoolId: stack.config.userPoolId, Filter: `email = "${email}"` }))).Users ?? [];

/** A confirmed user with a verified e-mail (unless `verified` is false), created by the operator, in `groups`; returns its user name (the `sub`). */
async function createUser(email: string, groups: string[], verified = true): Promise<string> {
  const UserPoolId = stack.config.userPoolId;
  const created = await admin.send(
    new AdminCreateUserCommand({ UserPoolId, Username: email, MessageAction: 'SUPPRESS', UserAttributes: [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: String(verified) }] }),
  );
  await admin.send(new AdminSetUserPasswordCommand({ UserPoolId, Username: email, Password: PASSWORD, Permanent: true }));
  for (const g of groups) await admin.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: email, GroupName: g }));
  return created.User!.Username!;
}

/** The access requests recorded for the user `username` (staff audit log, action `user.access_request`). */
async function accessRequestsOf(username: string) {
  const page = await listTenantAudit(STAFF_AUDIT_TENANT, { limit: 100, action: 'user.access_request' }, stack.repositoryTable);
  return page.items.filter((e) => e.target.id === username);
}

describe('a self-registered user cannot claim a link to a company identity provider', () => {
  it('SignUp with identities naming AcmeIdP is refused and stores nothing', async () => {
    const email = `intruso-${randomUUID().slice(0, 8)}@evil.example`;
    const refused = await errorOf(
      pub.send(new SignUpCommand({ ClientId: stack.config.userPoolClientId, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }, { Name: 'identities', Value: ACME_LINK }] })),
    );
    expect(refused).toEqual({ name: 'NotAuthorizedException', message: 'A client attempted to write unauthorized attribute' });
    expect(await usersWithEmail(email)).toEqual([]);
  });

  it('a registered user cannot add the link later, lands in no tenant and reads nothing of Acme', async () => {
    const email = `intruso-${randomUUID().slice(0, 8)}@evil.example`;
    await pub.send(new SignUpCommand({ ClientId: stack.config.userPoolClientId, Username: email, Password: PASSWORD, UserAttributes: [{ Name: 'email', Value: email }] }));
    await pub.send(new ConfirmSignUpCommand({ ClientId: stack.config.userPoolClientId, Username: email, ConfirmationCode: FIXED_CODE }));
    const first = await signInWithSrp(pub, { ...ids(), username: email, password: PASSWORD });
    const refused = await errorOf(pub.send(new UpdateUserAttributesCommand({ AccessToken: first.AccessToken!, UserAttributes: [{ Name: 'identities', Value: ACME_LINK }] })));
    expect(refused.name).toBe('NotAuthorizedException');
    const [stored] = await usersWithEmail(email);
    expect((stored?.Attributes ?? []).map((a) => a.Name)).not.toContain('identities');

    const tokens = await signInWithSrp(pub, { ...ids(), username: email, password: PASSWORD });
    expect(decodeJwt(tokens.IdToken!)['cognito:groups']).toBeUndefined();
    const me = await fetch(`${stack.urls.api}/me`, { headers: { authorization: tokens.IdToken! } });
    expect(JSON.stringify(await me.json())).not.toContain('acme');
    for (const query of ['?tenant=acme', '']) {
      const incidents = await fetch(`${stack.urls.api}/incidents${query}`, { headers: { authorization: tokens.IdToken! } });
      expect(incidents.status).toBe(403);
    }
  });
});

describe('the pre token generation event carries the groups', () => {
  it('a user with a group signs in and refreshes: no access request', async () => {
    const email = `con-grupo-${randomUUID().slice(0, 8)}@acme.example`;
    const username = await createUser(email, ['acme']);
    const tokens = await signInWithSrp(pub, { ...ids(), username: email, password: PASSWORD });
    expect(decodeJwt(tokens.IdToken!)['cognito:groups']).toEqual(['acme']);
    await pub.send(new GetTokensFromRefreshTokenCommand({ ClientId: stack.config.userPoolClientId, RefreshToken: tokens.RefreshToken! }));
    expect(await accessRequestsOf(username)).toEqual([]);
  });

  it('a user in no group: exactly one access request for one sign-in, none for its refresh', async () => {
    const email = `sin-grupo-${randomUUID().slice(0, 8)}@example.com`;
    const username = await createUser(email, []);
    const tokens = await signInWithSrp(pub, { ...ids(), username: email, password: PASSWORD });
    await pub.send(new GetTokensFromRefreshTokenCommand({ ClientId: stack.config.userPoolClientId, RefreshToken: tokens.RefreshToken! }));
    const entries = await accessRequestsOf(username);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'user.access_request', actor: { email }, after: { email } });
  });
});

describe("the ID token's email_verified is the pool's attribute, as Cognito writes it", () => {
  // cognito-local alone wrote Boolean("false") === true for every user (scripts/local/cognito/triggers.ts,
  // withPoolEmailVerified); the portal opens before Amplify's Verify Contact only on a true claim.
  it('false for an unverified address, true for a verified one (booleans)', async () => {
    const unverified = `sin-verificar-${randomUUID().slice(0, 8)}@acme.example`;
    await createUser(unverified, ['acme'], false);
    expect(decodeJwt((await signInWithSrp(pub, { ...ids(), username: unverified, password: PASSWORD })).IdToken!).email_verified).toBe(false);
    const verified = `verificado-${randomUUID().slice(0, 8)}@acme.example`;
    await createUser(verified, ['acme']);
    expect(decodeJwt((await signInWithSrp(pub, { ...ids(), username: verified, password: PASSWORD })).IdToken!).email_verified).toBe(true);
  });
});
