/**
 * Invite a user into a stage's user pool: an admin-created user (AdminCreateUser) with a verified e-mail,
 * added to a tenant group (or `admin`). Cognito e-mails a temporary password; the user sets a new one at the
 * first sign-in (the portal's Authenticator shows "change password"). Idempotent: an existing user is only
 * added to the group.
 *
 *   npm run platform:invite-user -- --stage prod --email ana@acme.com --tenant acme
 *   # local stack (endpoint override; password set directly, no e-mail):
 *   npm run platform:invite-user -- --user-pool-id local_vigia --endpoint http://127.0.0.1:9229 \
 *       --region us-east-1 --email new@acme.example --tenant acme --password 'Secreta123'
 *
 * `--password` (CI seeding, local) suppresses the e-mail and sets a PERMANENT password instead.
 * Errors: the group must exist (create it with create-tenant.ts) — exit 1 with a message otherwise.
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminSetUserPasswordCommand,
  GetGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { TenantId } from '../../lambdas/contract/schemas.js';
import { ADMIN_GROUP } from '../../lambdas/contract/routes.js';
import { cloudFormationClient, cognitoClient, resolveRegion, stageOutputs } from './aws.js';
import { optional, parse, progress, required, runCli, UsageError } from './cli.js';

export const USAGE = `
Usage: tsx scripts/platform/invite-user.ts (--stage <stage> | --user-pool-id <id>) --email <e-mail> --tenant <group>

Creates (or reuses) the user and adds it to the tenant group. Cognito e-mails a temporary password.

Options:
  --stage          deployed stage; the user pool id is read from the Vigia-<stage>-Auth stack outputs
  --user-pool-id   user pool id (instead of --stage), e.g. local_vigia for the local stack
  --email          the user's e-mail (the username)
  --tenant         tenant group (e.g. acme) or "admin" for Vigía staff
  --password       set this PERMANENT password and send no e-mail (CI seeding, local stack)
  --endpoint       Cognito endpoint override, e.g. http://127.0.0.1:9229 (local stack)
  --region         AWS region (default $AWS_REGION)
  -h, --help       this text
`;

/** Minimal Cognito client shape (real client or fake). */
export interface CognitoLike {
  send(command: object): Promise<unknown>;
}

export interface InviteInput {
  userPoolId: string;
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
const isAws = (e: unknown, name: string): boolean => (e as { name?: string } | null)?.name === name;

/** Validates the command's inputs. @throws UsageError */
export function validateInvite(input: InviteInput): void {
  if (!EMAIL.test(input.email)) throw new UsageError(`--email "${input.email}" is not an e-mail address`);
  if (input.group !== ADMIN_GROUP && !TenantId.safeParse(input.group).success) {
    throw new UsageError(`--tenant "${input.group}" is not a tenant id (lower-case letters, digits, dashes) or "${ADMIN_GROUP}"`);
  }
}

/**
 * Invites one user. @throws Error when the group does not exist; Cognito errors otherwise
 * (e.g. InvalidPasswordException for a password the pool's policy refuses).
 */
export async function inviteUser(idp: CognitoLike, input: InviteInput, log: (l: string) => void = () => undefined): Promise<InviteResult> {
  validateInvite(input);
  const email = input.email.toLowerCase();
  try {
    await idp.send(new GetGroupCommand({ UserPoolId: input.userPoolId, GroupName: input.group }));
  } catch (e) {
    if (isAws(e, 'ResourceNotFoundException')) {
      throw new Error(`group "${input.group}" does not exist in user pool ${input.userPoolId}: create the tenant first (npm run platform:create-tenant)`, { cause: e });
    }
    throw e;
  }

  let created = true;
  try {
    await idp.send(
      new AdminCreateUserCommand({
        UserPoolId: input.userPoolId,
        Username: email,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
        DesiredDeliveryMediums: ['EMAIL'],
        ...(input.password ? { MessageAction: 'SUPPRESS' as const } : {}),
      }),
    );
    log(input.password ? `created ${email} (no e-mail sent)` : `created ${email}; Cognito e-mails a temporary password`);
  } catch (e) {
    if (!isAws(e, 'UsernameExistsException')) throw e;
    created = false;
    log(`${email} already exists; ensuring group membership`);
  }
  if (input.password) {
    await idp.send(new AdminSetUserPasswordCommand({ UserPoolId: input.userPoolId, Username: email, Password: input.password, Permanent: true }));
    log(`permanent password set for ${email}`);
  }
  await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: input.userPoolId, Username: email, GroupName: input.group }));
  log(`${email} is in group ${input.group}`);
  return { created, delivery: created && !input.password ? 'email' : 'none' };
}

/** Resolves the user pool id from `--user-pool-id` or the stage's outputs. @throws UsageError */
export async function resolveUserPoolId(p: { userPoolId?: string | undefined; stage?: string | undefined; region: string }): Promise<string> {
  if (p.userPoolId) return p.userPoolId;
  if (!p.stage) throw new UsageError('pass --stage <stage> or --user-pool-id <id>');
  const outputs = await stageOutputs(cloudFormationClient(p.region), p.stage, p.region);
  const id = outputs.UserPoolId;
  if (!id) throw new Error(`stage ${p.stage}: no UserPoolId output`);
  return id;
}

async function main(argv: string[]): Promise<void | 'help'> {
  const p = parse(argv, {
    stage: { type: 'string' },
    'user-pool-id': { type: 'string' },
    email: { type: 'string' },
    tenant: { type: 'string' },
    password: { type: 'string' },
    endpoint: { type: 'string' },
    region: { type: 'string' },
  });
  if (!p) return 'help';
  const log = progress('invite-user');
  const region = resolveRegion(optional(p, 'region'));
  const endpoint = optional(p, 'endpoint');
  const input: InviteInput = { userPoolId: '', email: required(p, 'email'), group: required(p, 'tenant') };
  const password = optional(p, 'password');
  if (password) input.password = password;
  validateInvite(input);
  input.userPoolId = await resolveUserPoolId({ userPoolId: optional(p, 'user-pool-id'), stage: optional(p, 'stage'), region });
  log(`user pool ${input.userPoolId} (${endpoint ?? region})`);
  const idp = cognitoClient({ region, ...(endpoint ? { cognitoEndpoint: endpoint } : {}) });
  try {
    const r = await inviteUser(idp, input, log);
    process.stdout.write(`${JSON.stringify({ email: input.email.toLowerCase(), group: input.group, ...r })}\n`);
  } finally {
    idp.destroy();
  }
}

runCli(import.meta.url, USAGE, main);
