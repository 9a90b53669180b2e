/**
 * Invite a user into a stage: an admin-created user (AdminCreateUser) with a verified e-mail, added to a
 * registered tenant's group, or made staff with `--tenant admin`. Cognito e-mails a temporary password; the
 * user sets a new one at the first sign-in (the portal's Authenticator shows "change password").
 * Idempotent: an existing user is only added to the group.
 *
 * Calls the same domain code as the administration API (lambdas/domain/admin.ts): `inviteTenantUser`
 * (`POST /tenants/{tenantId}/users`) or `inviteStaff` (invitation + `grantStaff`), over the same ports: the
 * stage table's repository (tenant registry, audit log) and the users port of the admin Lambda
 * (`cognitoUsers`, lambdas/data/cognito-users.ts) signed with the operator's AWS credentials (SDK default
 * provider chain; the local pool's operator key with `--endpoint` and no AWS_ACCESS_KEY_ID). Its audit
 * entries name the operator as actor (`cli:<OS user>`, see create-tenant.ts `operatorRequest`).
 *
 *   npm run platform:invite-user -- --stage prod --email ana@acme.com --tenant acme
 *   # local stack (endpoint overrides; password set directly, no e-mail):
 *   npm run platform:invite-user -- --user-pool-id local_vigia --table vigia-local-main --region us-east-1 \
 *       --endpoint http://127.0.0.1:9229 --dynamodb-endpoint http://127.0.0.1:8000 \
 *       --email new@acme.example --tenant acme --password 'Secreta123'
 *
 * `--password` (CI seeding, local) suppresses the e-mail and sets a PERMANENT password instead (also for an
 * existing user); this needs AdminSetUserPassword, which only the operator has (no function role).
 * Errors: the tenant must be registered (create it with create-tenant.ts) — exit 1 with a message otherwise.
 */
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import { TenantId } from '../../lambdas/contract/schemas.js';
import type { TableRef } from '../../lambdas/data/table/client.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { dynamoRepository } from '../../lambdas/data/index.js';
import { inviteStaff, inviteTenantUser, type AdminPorts } from '../../lambdas/domain/admin.js';
import type { AuditRequest } from '../../lambdas/domain/audit.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../local/config.js';
import { cognitoClient, operatorRequest, resolveRegion, resolveUserPoolId, TABLE_OPTIONS, tableFromOptions } from './aws.js';
import { optional, parse, progress, required, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/invite-user.ts (--stage <stage> | --user-pool-id <id> --table <name>) --email <e-mail> --tenant <id>

Creates (or reuses) the user and adds it to the tenant group (or makes it staff). Cognito e-mails a
temporary password. Audited in the tenant's log (staff: the staff log) with the operator as actor.

Options:
  --stage               deployed stage: user pool from the Vigia-<stage>-Auth outputs, table from the Vigia-<stage>-Data outputs
  --user-pool-id        user pool id (instead of --stage), e.g. local_vigia for the local stack
  --table               table name (default: the deployed stage's, from its Vigia-<stage>-Data outputs)
  --email               the user's e-mail (the username)
  --tenant              a registered tenant (e.g. acme) or "admin" for Vigía staff
  --password            set this PERMANENT password and send no e-mail (CI seeding, local stack)
  --endpoint            Cognito endpoint override, e.g. http://127.0.0.1:9229 (local stack)
  --dynamodb-endpoint   DynamoDB endpoint override (local stack)
  --region              AWS region (default $AWS_REGION)
  -h, --help            this text
`;

/**
 * The IAM actions of a run on the pool (`cognitoUsers`: ListUsers to find the e-mail, AdminCreateUser,
 * AdminAddUserToGroup, AdminGetUser; with `--password` also `COGNITO_OPERATOR_ACTIONS`) and on the table (the
 * tenant read, the audit entry).
 */
export const INVITE_USER_ACTIONS = {
  userPool: ['cognito-idp:ListUsers', 'cognito-idp:AdminCreateUser', 'cognito-idp:AdminAddUserToGroup', 'cognito-idp:AdminGetUser'],
  table: ['dynamodb:GetItem', 'dynamodb:PutItem'],
} as const;

/** Minimal Cognito SDK client shape (real client or fake); create-tenant.ts uses it for its one call. */
export interface InviteInput {
  email: string;
  /** Tenant id or `admin`. */
  group: string;
  /** Permanent password; when set no invitation e-mail is sent. */
  password?: string;
}

export interface InviteResult {
  created: boolean;
  /** `email` = Cognito sent the temporary password; `none` = password set directly (or user existed). */
  delivery: 'email' | 'none';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Validates the command's inputs. @throws UsageError */
export function validateInvite(input: Pick<InviteInput, 'email' | 'group'>): void {
  if (!EMAIL.test(input.email)) throw new UsageError(`--email "${input.email}" is not an e-mail address`);
  if (input.group !== ADMIN_GROUP && !TenantId.safeParse(input.group).success) {
    throw new UsageError(`--tenant "${input.group}" is not a tenant id (lower-case letters, digits, dashes) or "${ADMIN_GROUP}"`);
  }
}

/** The administration ports of a command-line run: the table's repository and `users`. */
export function operatorPorts(table: TableRef, users: UsersPort): AdminPorts {
  const repo = dynamoRepository(table);
  return { tenants: repo.tenants, tenantAdmin: repo.tenantAdmin, audit: repo.audit, users };
}

/**
 * The admin Lambda's users port (`cognitoUsers`) on `userPoolId`, signed with the operator's credentials:
 * the local pool's operator key for an endpoint override without AWS_ACCESS_KEY_ID in the environment
 * (docs/local-emulation.md#administrative-operations), else the SDK's default provider chain (environment,
 * profile, SSO, web identity), resolved once. @throws Error when no credentials are found
 */
export async function operatorUsers(o: { userPoolId: string; region: string; endpoint?: string | undefined }): Promise<UsersPort> {
  let credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  if (o.endpoint && !process.env.AWS_ACCESS_KEY_ID) {
    credentials = { accessKeyId: LOCAL_OPERATOR_CREDENTIAL.accessKeyId, secretAccessKey: LOCAL_OPERATOR_CREDENTIAL.secretAccessKey };
  } else {
    const sdk = cognitoClient({ region: o.region });
    try {
      const c = await sdk.config.credentials();
      credentials = { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, ...(c.sessionToken ? { sessionToken: c.sessionToken } : {}) };
    } finally {
      sdk.destroy();
    }
  }
  return cognitoUsers({ userPoolId: o.userPoolId, region: o.region, endpoint: o.endpoint, credentials });
}

/**
 * Invites one user through the domain (`inviteTenantUser`, or `inviteStaff` for `admin`), audited with
 * `req` (default: the operator of this run).
 * @throws UsageError for bad inputs; Error when the tenant is not registered; Cognito errors otherwise
 *         (e.g. InvalidPasswordException for a password the pool's policy refuses)
 */
export async function inviteUser(
  ports: AdminPorts,
  input: InviteInput,
  log: (l: string) => void = () => undefined,
  req: AuditRequest = operatorRequest(),
): Promise<InviteResult> {
  validateInvite(input);
  const email = input.email.toLowerCase();
  const opts = input.password ? { permanentPassword: input.password } : {};
  if (input.group !== ADMIN_GROUP && !(await ports.tenants.getTenant(input.group))) {
    throw new Error(`tenant "${input.group}" is not registered: create the tenant first (npm run platform:create-tenant)`);
  }
  const { created } = input.group === ADMIN_GROUP ? await inviteStaff(ports, email, req, opts) : await inviteTenantUser(ports, input.group, email, req, opts);
  log(created ? (input.password ? `created ${email} (no e-mail sent)` : `created ${email}; Cognito e-mails a temporary password`) : `${email} already exists`);
  if (input.password) log(`permanent password set for ${email}`);
  log(input.group === ADMIN_GROUP ? `${email} is staff` : `${email} is in group ${input.group}`);
  return { created, delivery: created && !input.password ? 'email' : 'none' };
}

export async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    ...TABLE_OPTIONS,
    'user-pool-id': { type: 'string' },
    email: { type: 'string' },
    tenant: { type: 'string' },
    password: { type: 'string' },
    endpoint: { type: 'string' },
  });
  if (!p) return 'help';
  const log = progress('invite-user');
  const input: InviteInput = { email: required(p, 'email'), group: required(p, 'tenant') };
  const password = optional(p, 'password');
  if (password) input.password = password;
  validateInvite(input);
  const region = resolveRegion(optional(p, 'region'));
  if (!optional(p, 'stage') && !optional(p, 'table')) throw new UsageError('pass --stage <stage>, or --user-pool-id <id> with --table <name>');
  const { table, tableName, stage } = await tableFromOptions(p);
  const endpoint = optional(p, 'endpoint');
  try {
    const userPoolId = await resolveUserPoolId({ userPoolId: optional(p, 'user-pool-id'), stage, region });
    log(`user pool ${userPoolId} (${endpoint ?? region}), table ${tableName}`);
    const users = await operatorUsers({ userPoolId, region, endpoint });
    const r = await inviteUser(operatorPorts(table, users), input, log);
    process.stdout.write(`${JSON.stringify({ email: input.email.toLowerCase(), group: input.group, ...r })}\n`);
  } finally {
    table.doc.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
