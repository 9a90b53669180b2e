/**
 * The role matrix of docs/api.md#customer-roles (between `<!-- roles:start -->` and `<!-- roles:end -->`), generated
 * from the route table; test/unit/lambdas/customer-roles.test.ts fails when the doc differs. Regenerate with
 * `npx tsx -e "import('./test/support/role-matrix.ts').then((m) => console.log(m.roleMatrix()))"`.
 */
import { CUSTOMER_ROLES, ROUTES, resolvedMinRole, roleAtLeast, type RouteDef } from '../../lambdas/contract/routes.js';

/**
 * The role matrix of docs/api.md#customer-roles, generated from the route table: every tenant-scoped row with its
 * resolved `minRole` and whether viewer / operator / admin may call it.
 */
export function roleMatrix(): string {
  const mark = (ok: boolean) => (ok ? 'yes' : '403');
  const rows = (ROUTES as readonly RouteDef[])
    .filter((r) => r.tenantScoped)
    .map((r) => {
      const min = resolvedMinRole(r)!;
      return `| \`${r.operationId}\` | ${r.method} \`${r.path}\` | ${min}${r.minRole ? '' : ' (default)'} | ${CUSTOMER_ROLES.map((role) => mark(roleAtLeast(role, min))).join(' | ')} |`;
    });
  return ['| Operation | Route | `minRole` | viewer | operator | admin |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

