/**
 * Collectors and tenants: which IAM principal may write which tenant through the ingest routes.
 *
 * API Gateway's IAM authorization (SigV4) hands the Lambda the caller's ARN as
 * `requestContext.identity.userArn`. A collector running on a role (an EC2 instance profile, ECS task role,
 * `sts:AssumeRole`) calls as an assumed-role session, `arn:aws:sts::<account>:assumed-role/<role>/<session>`;
 * the session part changes with every set of temporary credentials, so grants name the role,
 * `arn:aws:iam::<account>:role/<role>` ({@link collectorPrincipal}). The tenant registry item lists the
 * principals allowed to write the tenant (`collectors`); the ingest check reads it with ONE GetItem, which
 * also proves that the tenant is registered. Rules: docs/api.md#collectors-and-tenants.
 */
import { ApiError } from './errors.js';
import type { TenantsPort } from './ports.js';
import { assertTenantIdNotReserved } from './reserved-names.js';

const ASSUMED_ROLE = /^arn:(aws[a-z-]*):sts::(\d{12}):assumed-role\/([^/]+)\/[^/]+$/;
const ROLE = /^arn:(aws[a-z-]*):iam::(\d{12}):role\/(?:[^/]+\/)*([^/]+)$/;
const USER = /^arn:aws[a-z-]*:iam::\d{12}:user\/(?:[^/]+\/)*[^/]+$/;

/**
 * The principal a grant names, from a caller or role ARN:
 *  - an assumed-role session `arn:<partition>:sts::<acct>:assumed-role/<role>/<session>` → the role ARN
 *    `arn:<partition>:iam::<acct>:role/<role>`;
 *  - a role ARN with a path (`…:role/collectors/<role>`) → the role ARN without the path (an assumed-role
 *    ARN carries no path, so grants never do);
 *  - an IAM user ARN → itself.
 * @returns null for anything else (not a principal a collector can call as).
 */
export function collectorPrincipal(arn: string): string | null {
  const a = ASSUMED_ROLE.exec(arn) ?? ROLE.exec(arn);
  if (a) return `arn:${a[1]}:iam::${a[2]}:role/${a[3]}`;
  return USER.test(arn) ? arn : null;
}

/**
 * Whether the calling collector (`callerArn`, `requestContext.identity.userArn`) may write `tenantId`.
 * One read of the tenant registry item (`getTenantCollectors`).
 * @throws ApiError NOT_FOUND when the tenant is not registered; FORBIDDEN when the caller's principal is
 *   not among the tenant's collectors.
 */
export async function authorizeCollector(tenants: Pick<TenantsPort, 'getTenantCollectors'>, callerArn: string, tenantId: string): Promise<void> {
  const allowed = await tenants.getTenantCollectors(tenantId);
  if (allowed === null) throw new ApiError('NOT_FOUND', `tenant ${tenantId} not found`);
  const principal = collectorPrincipal(callerArn);
  if (principal === null || !allowed.includes(principal)) {
    throw new ApiError('FORBIDDEN', `the collector is not allowed to write tenant ${tenantId}`);
  }
}

/**
 * Checks a grant (or revocation) of `arn` on `tenantId` before anything is written (scripts/platform/grant-collector.ts):
 * the tenant id is not the staff group's name (docs/api.md#reserved-names) and the ARN names a principal.
 * @returns the principal to store ({@link collectorPrincipal})
 * @throws ApiError RESERVED_NAME (`fields: ['tenantId']`), VALIDATION_FAILED (`fields: ['roleArn']`: not a role,
 *   assumed-role or IAM user ARN)
 */
export function collectorGrant(tenantId: string, arn: string): string {
  assertTenantIdNotReserved(tenantId);
  const principal = collectorPrincipal(arn);
  if (!principal) throw new ApiError('VALIDATION_FAILED', `"${arn}" is not an IAM role, assumed-role or user ARN`, { fields: ['roleArn'] });
  return principal;
}
