/**
 * The `UsersPort` over the Cognito user pool's administrative API: `awsJson11` (`aws-lite.ts`: aws-lite signed
 * requests in the JSON 1.1 protocol, target `AWSCognitoIdentityProviderService.<Operation>`), not the AWS SDK
 * (kept out of the Lambda bundles; docs/decisions/aws-lite-dynamodb-client.md).
 *
 * Operations called, all on the one pool `userPoolId` (the admin Lambda's role allows exactly these:
 * `COGNITO_ADMIN_ACTIONS`): ListUsersInGroup, AdminGetUser, ListUsers, CreateGroup,
 * AdminCreateUser, AdminAddUserToGroup, AdminRemoveUserFromGroup, AdminDisableUser, AdminEnableUser,
 * AdminSetUserMFAPreference, AdminListGroupsForUser, AdminDeleteUser (the team page's removal). The incidents Lambda calls `listGroupMembers` only
 * (`COGNITO_ASSIGNEE_ACTIONS`: ListUsersInGroup). `createUser` with a permanent password also calls
 * AdminSetUserPassword (`COGNITO_OPERATOR_ACTIONS`): the operator's command line only, no function role
 * has it.
 *
 * Locally `endpoint` is the local user pool and `credentials` the local operator key (its administrative
 * operations refuse unsigned calls; docs/local-emulation.md#administrative-operations). In AWS the
 * credentials are the function role's (AWS_* variables set by Lambda).
 *
 * Errors: `UserNotFoundException` / `ResourceNotFoundException` → `ApiError('NOT_FOUND')`; other errors
 * reject with `name` = the Cognito error code.
 */
import { USER_STATUSES, type PoolUser } from '../contract/schemas.js';
import { ApiError } from '../domain/errors.js';
import type { UsersPort } from '../domain/ports.js';
import { type AwsCredentials, type AwsJson11Options, type JsonObject as Json, awsErrorCode, awsJson11 } from './table/aws-lite.js';

/** The IAM actions this module calls (granted on the pool's ARN only; infra/api-stack.ts). */
export const COGNITO_ADMIN_ACTIONS = [
  'cognito-idp:ListUsersInGroup',
  'cognito-idp:AdminGetUser',
  'cognito-idp:ListUsers',
  'cognito-idp:CreateGroup',
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminAddUserToGroup',
  'cognito-idp:AdminRemoveUserFromGroup',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminSetUserMFAPreference',
  'cognito-idp:AdminListGroupsForUser',
  'cognito-idp:AdminDeleteUser',
] as const;

/** The IAM actions of `listGroupMembers`, all the incidents Lambda may call (assignee validation). */
export const COGNITO_ASSIGNEE_ACTIONS = ['cognito-idp:ListUsersInGroup'] as const;

/** Called only for the operator's command line (`createUser` with a permanent password); granted to no function. */
export const COGNITO_OPERATOR_ACTIONS = ['cognito-idp:AdminSetUserPassword'] as const;

/** Options of `cognitoUsers`. */
export interface CognitoUsersOptions {
  userPoolId: string;
  region: string;
  /** Endpoint override (the local user pool); default `https://cognito-idp.<region>.amazonaws.com`. */
  endpoint?: string | undefined;
  credentials?: AwsCredentials | undefined;
}

/**
 * The `awsJson11` options of the Cognito user pool API (`cognito-idp`, target
 * `AWSCognitoIdentityProviderService.<Operation>`) for a region, endpoint and credentials.
 */
export function cognitoIdp(opts: Pick<CognitoUsersOptions, 'region' | 'endpoint' | 'credentials'>): AwsJson11Options {
  return { service: 'cognito-idp', targetPrefix: 'AWSCognitoIdentityProviderService', region: opts.region, endpoint: opts.endpoint, credentials: opts.credentials };
}

/** A Cognito user (ListUsers* `Users[]` or AdminGetUser output) as a `PoolUser`. */
export function poolUserOf(u: Json, mfa: boolean): PoolUser {
  const attrs = (u.Attributes ?? u.UserAttributes ?? []) as { Name: string; Value: string }[];
  const attr = (n: string) => attrs.find((a) => a.Name === n)?.Value;
  const status = String(u.UserStatus ?? 'UNKNOWN');
  const created = u.UserCreateDate;
  const createdAt = typeof created === 'number' ? new Date(created * 1000).toISOString() : typeof created === 'string' && !Number.isNaN(Date.parse(created)) ? new Date(created).toISOString() : undefined;
  return {
    username: String(u.Username),
    ...(attr('sub') ? { sub: attr('sub') } : {}),
    ...(attr('email') ? { email: attr('email') } : {}),
    status: (USER_STATUSES as readonly string[]).includes(status) ? (status as PoolUser['status']) : 'UNKNOWN',
    enabled: u.Enabled !== false,
    mfa,
    ...(createdAt ? { createdAt } : {}),
  };
}

const hasTotp = (u: Json): boolean => ((u.UserMFASettingList ?? []) as string[]).includes('SOFTWARE_TOKEN_MFA');

/** The users port on one pool (see module doc). */
export function cognitoUsers(opts: CognitoUsersOptions): UsersPort {
  const send = awsJson11({ ...cognitoIdp(opts), common: { UserPoolId: opts.userPoolId } });
  async function call(op: string, body: Json): Promise<Json> {
    try {
      return await send(op, body);
    } catch (e) {
      const code = awsErrorCode(e);
      if (code === 'UserNotFoundException' || code === 'ResourceNotFoundException') throw new ApiError('NOT_FOUND', (e as Error).message || code);
      throw e;
    }
  }
  const getUser = async (username: string): Promise<PoolUser | null> => {
    try {
      const u = await call('AdminGetUser', { Username: username });
      return poolUserOf(u, hasTotp(u));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'NOT_FOUND') return null;
      throw e;
    }
  };
  const mustGet = async (username: string): Promise<PoolUser> => {
    const u = await getUser(username);
    if (!u) throw new ApiError('NOT_FOUND', 'no such user');
    return u;
  };
  const groupPages = async (group: string): Promise<Json[]> => {
    const users: Json[] = [];
    let token: string | undefined;
    do {
      const res = await call('ListUsersInGroup', { GroupName: group, Limit: 60, ...(token ? { NextToken: token } : {}) });
      users.push(...((res.Users ?? []) as Json[]));
      token = typeof res.NextToken === 'string' ? res.NextToken : undefined;
    } while (token);
    return users;
  };
  return {
    async listGroupMembers(group) {
      return (await groupPages(group)).map((u) => {
        const { mfa: _mfa, ...member } = poolUserOf(u, false);
        return member;
      });
    },
    async listGroupUsers(group) {
      const users = await groupPages(group);
      // MFA settings are only on AdminGetUser: one call per member, a few at a time.
      const out: PoolUser[] = [];
      for (let i = 0; i < users.length; i += 5) {
        const batch = await Promise.all(users.slice(i, i + 5).map(async (u) => (await getUser(String(u.Username))) ?? poolUserOf(u, false)));
        out.push(...batch);
      }
      return out.sort((a, b) => (a.email ?? a.username).localeCompare(b.email ?? b.username));
    },
    async countGroupUsers(group) {
      return (await groupPages(group)).length;
    },
    getUser,
    async ensureGroup(group, description) {
      // CreateGroup answering GroupExistsException is "exists already" (one call, no GetGroup).
      try {
        await call('CreateGroup', { GroupName: group, Description: description });
      } catch (err) {
        if ((err as Error).name !== 'GroupExistsException') throw err;
      }
    },
    async createUser(email, createOpts = {}) {
      const password = createOpts.permanentPassword;
      const found = await call('ListUsers', { Filter: `email = "${email.replace(/["\\]/g, '')}"`, Limit: 1 });
      const existing = ((found.Users ?? []) as Json[])[0];
      if (existing && createOpts.mustBeNew) throw new ApiError('USER_EXISTS', 'a user with that e-mail exists already');
      let username: string;
      let created: PoolUser | null = null;
      if (existing) {
        username = String(existing.Username);
      } else {
        const res = await call('AdminCreateUser', {
          Username: email,
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'email_verified', Value: 'true' },
            ...(createOpts.name ? [{ Name: 'name', Value: createOpts.name }] : []),
          ],
          DesiredDeliveryMediums: ['EMAIL'],
          ...(password ? { MessageAction: 'SUPPRESS' } : {}),
        }).catch((e: unknown) => {
          // Created meanwhile by another request (the ListUsers above saw none).
          if (awsErrorCode(e) === 'UsernameExistsException') throw new ApiError('USER_EXISTS', 'a user with that e-mail exists already');
          throw e;
        });
        created = poolUserOf((res.User ?? {}) as Json, false);
        username = created.username;
      }
      if (password) {
        await call('AdminSetUserPassword', { Username: username, Password: password, Permanent: true });
        return { user: await mustGet(username), created: created !== null };
      }
      return created ? { user: created, created: true } : { user: await mustGet(username), created: false };
    },
    async resendInvitation(username) {
      const u = await mustGet(username);
      if (u.status !== 'FORCE_CHANGE_PASSWORD') throw new ApiError('INVALID_TRANSITION', 'the user has already set a password');
      await call('AdminCreateUser', { Username: username, MessageAction: 'RESEND', DesiredDeliveryMediums: ['EMAIL'] });
      return mustGet(username);
    },
    async addToGroup(username, group) {
      await call('AdminAddUserToGroup', { Username: username, GroupName: group });
    },
    async removeFromGroup(username, group) {
      await call('AdminRemoveUserFromGroup', { Username: username, GroupName: group });
    },
    async setEnabled(username, enabled) {
      await call(enabled ? 'AdminEnableUser' : 'AdminDisableUser', { Username: username });
    },
    async resetMfa(username) {
      await call('AdminSetUserMFAPreference', { Username: username, SoftwareTokenMfaSettings: { Enabled: false, PreferredMfa: false } });
    },
    async listGroupPage(group, page) {
      const res = await call('ListUsersInGroup', { GroupName: group, Limit: page.limit, ...(page.token ? { NextToken: page.token } : {}) });
      const users = ((res.Users ?? []) as Json[]).map((u) => {
        const name = ((u.Attributes ?? []) as { Name: string; Value: string }[]).find((a) => a.Name === 'name')?.Value;
        return { ...poolUserOf(u, false), ...(name ? { name } : {}) };
      });
      return typeof res.NextToken === 'string' && res.NextToken ? { users, nextToken: res.NextToken } : { users };
    },
    async deleteUser(username) {
      await call('AdminDeleteUser', { Username: username });
    },
    async groupsOf(username) {
      const groups: string[] = [];
      let token: string | undefined;
      do {
        const res = await call('AdminListGroupsForUser', { Username: username, Limit: 60, ...(token ? { NextToken: token } : {}) });
        groups.push(...((res.Groups ?? []) as Json[]).map((g) => String(g.GroupName)));
        token = typeof res.NextToken === 'string' ? res.NextToken : undefined;
      } while (token);
      return groups;
    },
  };
}
