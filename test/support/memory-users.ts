/**
 * An in-memory `UsersPort` (a user pool of a few users and groups) for tests that call the admin handler
 * without a user pool: the route-example suites, which walk every row. Seeded with `u-1`
 * (`u-1@acme.example`, member of `acme`, FORCE_CHANGE_PASSWORD, as the route examples expect) and `t-1`, the team
 * examples' colleague. The real
 * local pool is exercised by test/integration/api-admin.test.ts.
 */
import type { PoolUser } from '../../lambdas/contract/schemas.js';
import { ApiError } from '../../lambdas/domain/errors.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';

type Stored = PoolUser & { name?: string; groups: Set<string> };

/** A fresh in-memory pool (see module doc). */
export function memoryUsers(): UsersPort {
  const users = new Map<string, Stored>([
    ['u-1', { username: 'u-1', sub: 'sub-u-1', email: 'u-1@acme.example', status: 'FORCE_CHANGE_PASSWORD', enabled: true, mfa: false, groups: new Set(['acme']) }],
    // Acme's colleague of the team examples (/team): never made staff by another example (grantStaff makes u-1 staff).
    ['t-1', { username: 't-1', sub: 'sub-t-1', email: 't-1@acme.example', status: 'CONFIRMED', enabled: true, mfa: false, groups: new Set(['acme']) }],
  ]);
  const view = ({ groups: _g, ...u }: Stored): PoolUser => ({ ...u });
  const must = (n: string): Stored => {
    const u = users.get(n);
    if (!u) throw new ApiError('NOT_FOUND', 'no such user');
    return u;
  };
  return {
    listGroupMembers: async (g) => [...users.values()].filter((u) => u.groups.has(g)).map(({ groups: _g, mfa: _m, ...u }) => ({ ...u })),
    listGroupUsers: async (g) => [...users.values()].filter((u) => u.groups.has(g)).map(view),
    countGroupUsers: async (g) => [...users.values()].filter((u) => u.groups.has(g)).length,
    getUser: async (n) => (users.has(n) ? view(users.get(n)!) : null),
    ensureGroup: async () => undefined,
    createUser: async (email, opts = {}) => {
      const found = [...users.values()].find((u) => u.email === email);
      // `mustBeNew` (the team invitation) is refused for the seeded users only, so the invitation example can be sent more than once.
      if (found && opts.mustBeNew && (found.username === 'u-1' || found.username === 't-1')) throw new ApiError('USER_EXISTS', 'a user with that e-mail exists already');
      if (found) return { user: view(found), created: false };
      const u: Stored = { username: `u-${users.size + 1}`, email, ...(opts.name ? { name: opts.name } : {}), status: 'FORCE_CHANGE_PASSWORD', enabled: true, mfa: false, groups: new Set() };
      users.set(u.username, u);
      return { user: view(u), created: true };
    },
    resendInvitation: async (n) => view(must(n)),
    addToGroup: async (n, g) => void must(n).groups.add(g),
    // Membership of the seeded user is kept, so every route example can be sent more than once.
    removeFromGroup: async (n) => void must(n),
    setEnabled: async (n, e) => void (must(n).enabled = e),
    resetMfa: async (n) => void (must(n).mfa = false),
    groupsOf: async (n) => [...must(n).groups],
    listGroupPage: async (g, { limit }) => ({ users: [...users.values()].filter((u) => u.groups.has(g)).slice(0, limit).map(view) }),
    // Kept, like removeFromGroup, so every route example can be sent more than once.
    deleteUser: async (n) => void must(n),
  };
}
