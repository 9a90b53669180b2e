/**
 * Unit tests of the administration and audit rules (`lambdas/domain/admin.ts`, `lambdas/domain/audit.ts`)
 * over in-memory ports: what each action changes, what its audit entry records, and what is refused.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry, PoolUser, Tenant } from '../../../lambdas/contract/schemas.js';
import * as admin from '../../../lambdas/domain/admin.js';
import { auditEntryFor, auditToCsv, changedFields, listAuditLog, STAFF_AUDIT_TENANT } from '../../../lambdas/domain/audit.js';
import { ApiError } from '../../../lambdas/domain/errors.js';
import type { Identity } from '../../../lambdas/domain/identity.js';
import type { AuditPort, TenantAdminPort, TenantsPort, UsersPort } from '../../../lambdas/domain/ports.js';

const staff: Identity = { sub: 'staff-1', email: 'soc@vigia.example', groups: ['admin'], tenants: [], isAdmin: true, mfa: true };
const customer: Identity = { sub: 'u-acme', email: '', groups: ['acme'], tenants: ['acme'], isAdmin: false, mfa: false };
const NOW = new Date('2026-03-01T10:00:00.000Z');
const req = (identity: Identity = staff) => ({ identity, requestId: 'req-1', sourceIp: '198.51.100.7', now: NOW });

/** In-memory tenants, audit log and user pool. */
function world() {
  const tenants = new Map<string, Tenant>([['acme', { id: 'acme', name: 'Acme' }]]);
  const entries: AuditEntry[] = [];
  const users = new Map<string, PoolUser & { groups: Set<string> }>();
  const groups = new Set<string>(['acme', 'admin']);
  // The counted members per tenant (the ledger behind `userCount`).
  const members = new Map<string, Set<string>>();
  const tenantsPort: TenantsPort = {
    getTenant: async (id) => tenants.get(id) ?? null,
    listTenants: async () => [...tenants.values()],
    listTenantSummaries: async () => ({ items: [...tenants.values()].map((t) => ({ ...t, userCount: members.get(t.id)?.size ?? 0 })), nextCursor: null }),
    getTenantCollectors: async () => [],
  };
  const tenantAdmin: TenantAdminPort = {
    create: async (t, a) => (tenants.has(t.id) ? false : (tenants.set(t.id, t), entries.push(a), true)),
    update: async (t, a) => (tenants.has(t.id) ? (tenants.set(t.id, t), entries.push(a), true) : false),
    addMember: async (t, u, _at, a) => {
      if (a) entries.push(a);
      const m = members.get(t) ?? new Set<string>();
      members.set(t, m);
      return m.has(u) ? false : (m.add(u), true);
    },
    removeMember: async (t, u) => members.get(t)?.delete(u) ?? false,
  };
  const audit: AuditPort = {
    put: async (e) => void entries.push(e),
    listTenant: async (t) => ({ items: entries.filter((e) => e.tenantId === t).reverse(), nextCursor: null }),
    listAll: async () => ({ items: [...entries].reverse(), nextCursor: null }),
  };
  const view = (u: PoolUser & { groups: Set<string> }): PoolUser => {
    const { groups: _g, ...rest } = u;
    return { ...rest };
  };
  const must = (n: string) => {
    const u = users.get(n);
    if (!u) throw new ApiError('NOT_FOUND', 'no such user');
    return u;
  };
  const usersPort: UsersPort = {
    listGroupMembers: async (g) => [...users.values()].filter((u) => u.groups.has(g)).map(({ groups: _g, mfa: _m, ...u }) => ({ ...u })),
    listGroupUsers: async (g) => [...users.values()].filter((u) => u.groups.has(g)).map(view),
    countGroupUsers: async (g) => [...users.values()].filter((u) => u.groups.has(g)).length,
    getUser: async (n) => (users.has(n) ? view(users.get(n)!) : null),
    ensureGroup: async (g) => void groups.add(g),
    createUser: async (email) => {
      const found = [...users.values()].find((u) => u.email === email);
      if (found) return { user: view(found), created: false };
      const u = { username: `id-${users.size + 1}`, sub: `sub-${users.size + 1}`, email, status: 'FORCE_CHANGE_PASSWORD' as const, enabled: true, mfa: false, groups: new Set<string>() };
      users.set(u.username, u);
      return { user: view(u), created: true };
    },
    resendInvitation: async (n) => view(must(n)),
    addToGroup: async (n, g) => void must(n).groups.add(g),
    removeFromGroup: async (n, g) => void must(n).groups.delete(g),
    setEnabled: async (n, e) => void (must(n).enabled = e),
    resetMfa: async (n) => void (must(n).mfa = false),
    groupsOf: async (n) => [...must(n).groups],
    listGroupPage: async (g) => ({ users: [...users.values()].filter((u) => u.groups.has(g)).map(view) }),
    deleteUser: async (n) => void users.delete(n),
  };
  // Session revocation markers: each `revoke` with the user's state at that moment (after the Cognito call) and its audit actions.
  const revoked: { sub: string; at: Date; enabled: boolean; groups: string[]; audit: string[] }[] = [];
  const sessions = {
    revoke: async (sub: string, at: Date, audit: readonly AuditEntry[] = []) => {
      const u = [...users.values()].find((x) => x.sub === sub)!;
      revoked.push({ sub, at, enabled: u.enabled, groups: [...u.groups], audit: audit.map((e) => e.action) });
    },
  };
  return { tenants, entries, users, groups, revoked, members, ports: { tenants: tenantsPort, tenantAdmin, audit, users: usersPort, sessions } };
}

describe('audit entries', () => {
  it('records only the changed fields, the actor (verified e-mail only), request id and source IP', () => {
    expect(changedFields({ name: 'A', x: 1 }, { name: 'B', x: 1, y: 2 })).toEqual({ before: { name: 'A' }, after: { name: 'B', y: 2 } });
    expect(changedFields({ name: 'A' }, { name: 'A' })).toEqual({});
    const e = auditEntryFor(req(customer), 'acme', 'recommendation.update', { type: 'recommendation', id: 'r1' }, { after: { status: 'done' } });
    expect(e).toMatchObject({ tenantId: 'acme', at: NOW.toISOString(), actor: { sub: 'u-acme' }, requestId: 'req-1', sourceIp: '198.51.100.7' });
    expect(e.actor).not.toHaveProperty('email');
    expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('CSV neutralises formulas and keeps before/after as JSON text', () => {
    const e = auditEntryFor(req(), 'acme', 'tenant.update', { type: 'tenant', id: 'acme' }, { before: { name: '=cmd' }, after: { name: 'Acme' } });
    const [, row] = auditToCsv([e]).split('\r\n');
    expect(row).toContain('"{""name"":""=cmd""}"');
    expect(row!.startsWith(NOW.toISOString())).toBe(true);
  });
});

describe('listAuditLog per role', () => {
  it('customers read their tenant only; staff read all; CSV writes an export entry', async () => {
    const w = world();
    await w.ports.audit.put(auditEntryFor(req(), 'acme', 'tenant.update', { type: 'tenant', id: 'acme' }));
    await w.ports.audit.put(auditEntryFor(req(), 'globex', 'tenant.update', { type: 'tenant', id: 'globex' }));
    const q = { limit: 20, format: 'json' as const };
    const exists = async (id: string) => id === 'acme' || id === 'globex';
    const download = (filename: string, text: string) => ({ filename, text });
    const own = await listAuditLog(w.ports.audit, q, req(customer), exists, download);
    expect('items' in own && own.items.map((e) => e.tenantId)).toEqual(['acme']);
    await expect(listAuditLog(w.ports.audit, { ...q, tenant: 'globex' }, req(customer), exists, download)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const all = await listAuditLog(w.ports.audit, q, req(), exists, download);
    expect('items' in all && all.items).toHaveLength(2);
    await listAuditLog(w.ports.audit, { ...q, format: 'csv' }, req(), exists, download);
    expect(w.entries.at(-1)).toMatchObject({ tenantId: STAFF_AUDIT_TENANT, action: 'export.audit' });
  });
});

describe('administration rules', () => {
  it('create tenant: group + registry + entry; an existing id is 409 and writes nothing', async () => {
    const w = world();
    await admin.createTenant(w.ports, { tenantId: 'initech', name: ' Initech ' }, req());
    expect(w.groups.has('initech')).toBe(true);
    expect(w.tenants.get('initech')).toEqual({ id: 'initech', name: 'Initech' });
    expect(w.entries).toHaveLength(1);
    await expect(admin.createTenant(w.ports, { tenantId: 'acme', name: 'x' }, req())).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(w.entries).toHaveLength(1);
  });

  it('update tenant merges SLA targets per severity; an unchanged update writes no entry', async () => {
    const w = world();
    await admin.updateTenant(w.ports, 'acme', { slaTargets: { high: { responseMinutes: 30, resolutionMinutes: 480 } } }, req());
    await admin.updateTenant(w.ports, 'acme', { slaTargets: { low: { responseMinutes: 240, resolutionMinutes: 4320 } } }, req());
    expect(Object.keys(w.tenants.get('acme')!.slaTargets!)).toEqual(['high', 'low']);
    const n = w.entries.length;
    await admin.updateTenant(w.ports, 'acme', { name: 'Acme' }, req());
    expect(w.entries).toHaveLength(n);
    await expect(admin.updateTenant(w.ports, 'nope', { name: 'x' }, req())).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('invite: lower-cased e-mail, added to the tenant group, audited; an unregistered tenant is 404', async () => {
    const w = world();
    const u = await admin.inviteUser(w.ports, 'acme', 'Ana@Acme.example', req());
    expect(u).toMatchObject({ email: 'ana@acme.example', status: 'FORCE_CHANGE_PASSWORD' });
    expect(w.users.get(u.username)!.groups.has('acme')).toBe(true);
    expect(w.entries.at(-1)).toMatchObject({ action: 'user.invite', tenantId: 'acme', after: { created: true } });
    await expect(admin.inviteUser(w.ports, 'nope', 'x@y.example', req())).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('reset MFA turns TOTP off and files the entry under the user’s tenants', async () => {
    const w = world();
    const u = await admin.inviteUser(w.ports, 'acme', 'ana@acme.example', req());
    w.users.get(u.username)!.mfa = true;
    const after = await admin.resetUserMfa(w.ports, u.username, req());
    expect(after.mfa).toBe(false);
    expect(w.users.get(u.username)!.mfa).toBe(false);
    expect(w.entries.at(-1)).toMatchObject({ action: 'user.reset_mfa', tenantId: 'acme', before: { mfa: true }, after: { mfa: false } });
  });

  it('staff cannot disable themselves or revoke their own staff membership', async () => {
    const w = world();
    w.users.set('staff-1', { username: 'staff-1', sub: 'staff-1', email: 'soc@vigia.example', status: 'CONFIRMED', enabled: true, mfa: true, groups: new Set(['admin']) });
    await expect(admin.setUserEnabled(w.ports, 'staff-1', false, req())).rejects.toMatchObject({ code: 'INVALID_TRANSITION' });
    await expect(admin.revokeStaff(w.ports, 'staff-1', req())).rejects.toMatchObject({ code: 'OWN_STAFF_ACCESS' });
    expect(w.users.get('staff-1')!.groups.has('admin')).toBe(true);
    const other = await admin.inviteUser(w.ports, 'acme', 'b@acme.example', req());
    await admin.grantStaff(w.ports, other.username, req());
    expect(w.entries.at(-1)).toMatchObject({ tenantId: STAFF_AUDIT_TENANT, action: 'staff.grant' });
    expect(w.revoked).toEqual([]);
  });

  it('disable, remove from tenant and revoke staff end the open sessions: a marker before the Cognito call that takes a group away, then one with the audit entries (docs/api.md#session-revocation)', async () => {
    const w = world();
    const u = await admin.inviteUser(w.ports, 'acme', 'ana@acme.example', req());
    await admin.grantStaff(w.ports, u.username, req());
    await admin.revokeStaff(w.ports, u.username, req());
    // First the bare marker while still a member, then the marker with the entry once the group is gone.
    expect(w.revoked.map((r) => [r.sub, r.groups, r.audit])).toEqual([[u.sub, ['acme', 'admin'], []], [u.sub, ['acme'], ['staff.revoke']]]);
    expect(w.revoked[1]!.at.getTime()).toBeGreaterThanOrEqual(Date.now() - 60_000);
    await admin.removeTenantUser(w.ports, 'acme', u.username, req());
    expect(w.revoked.slice(2).map((r) => [r.groups, r.audit])).toEqual([[['acme'], []], [[], ['user.remove_from_tenant']]]);
    await admin.setUserEnabled(w.ports, u.username, false, req());
    expect(w.revoked.slice(4).map((r) => [r.enabled, r.audit])).toEqual([[false, ['user.disable']]]);
    // Disabling again (a retry) writes the marker again, without a second entry.
    await admin.setUserEnabled(w.ports, u.username, false, req());
    expect(w.revoked.slice(5).map((r) => r.audit)).toEqual([[]]);
    // Enabling writes no marker: tokens issued before the disable stay refused, new sign-ins pass.
    await admin.setUserEnabled(w.ports, u.username, true, req());
    expect(w.revoked).toHaveLength(6);
  });

  it('a removal whose marker-and-audit write fails after the Cognito call still ended the sessions (the retry answers 404 and could not)', async () => {
    const w = world();
    const u = await admin.inviteUser(w.ports, 'acme', 'ana@acme.example', req());
    const revoke = w.ports.sessions.revoke;
    w.ports.sessions.revoke = async (sub, at, audit = []) => {
      if (audit.length) throw new ApiError('SERVICE_UNAVAILABLE', 'throttled');
      return revoke(sub, at, audit);
    };
    await expect(admin.removeTenantUser(w.ports, 'acme', u.username, req())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(admin.removeTenantUser(w.ports, 'acme', u.username, req())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(w.revoked.map((r) => r.sub)).toEqual([u.sub]);
  });
});
