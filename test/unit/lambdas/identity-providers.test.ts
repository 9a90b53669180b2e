/**
 * The order of a tenant identity provider change and its undo (lambdas/domain/identity-providers.ts), with in-memory
 * ports that record every call and fail on demand: a failure at any step leaves Cognito, the app client, Secrets
 * Manager and the table as they were before the request (create and change alike); DELETE takes the provider off
 * the app client before the item goes; the provider name fits Cognito's rules for any tenant id.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../lambdas/contract/schemas.js';
import {
  deleteTenantIdentityProvider,
  providerNameOf,
  putTenantIdentityProvider,
  type CognitoProviderSpec,
  type IdentityProviderPorts,
  type StoredIdentityProvider,
} from '../../../lambdas/domain/identity-providers.js';
import type { AuditRequest } from '../../../lambdas/domain/audit.js';

type Step = 'secret' | 'create' | 'update' | 'client' | 'store' | 'delete';

function world(failAt?: Step) {
  const calls: string[] = [];
  const providers = new Map<string, CognitoProviderSpec>();
  const secrets = new Map<string, string>();
  const items = new Map<string, StoredIdentityProvider>();
  let client = ['COGNITO', 'AcmeIdP'];
  const audits: AuditEntry[] = [];
  const fail = (s: Step) => {
    if (failAt === s) throw Object.assign(new Error(`${s} failed`), { name: 'InternalErrorException' });
  };
  const ports: IdentityProviderPorts = {
    tenants: { getTenant: async (id) => (id === 'globex' ? { id, name: 'Globex' } : null) },
    settings: { available: true, secretPrefix: 'vigia/test/identity-providers/', oauthDomain: 'x.auth.eu-west-1.amazoncognito.com', userPoolId: 'eu-west-1_x' },
    secrets: {
      put: async (n, v) => (calls.push(`secret.put`), fail('secret'), void secrets.set(n, v)),
      get: async (n) => secrets.get(n) ?? null,
      delete: async (n) => (calls.push('secret.delete'), void secrets.delete(n)),
    },
    cognito: {
      describe: async (n) => providers.get(n) ?? null,
      create: async (s) => (calls.push('cognito.create'), fail('create'), void providers.set(s.name, s)),
      update: async (s) => (calls.push('cognito.update'), fail('update'), void providers.set(s.name, s)),
      delete: async (n) => (calls.push('cognito.delete'), fail('delete'), void providers.delete(n)),
      providerOfIdentifier: async (d) => [...providers.values()].find((p) => p.identifiers.includes(d))?.name ?? (d === 'acme.example' ? 'AcmeIdP' : null),
      clientProviders: async () => [...client],
      updateClientProviders: async (change) => {
        calls.push('client.update');
        fail('client');
        client = change(client);
      },
    },
    store: {
      get: async (n) => items.get(n) ?? null,
      put: async (p, a) => (calls.push('store.put'), fail('store'), items.set(p.providerName, p), void audits.push(a)),
      delete: async (n, a) => (calls.push('store.delete'), fail('store'), items.delete(n), void audits.push(a)),
    },
  };
  const snapshot = () => JSON.parse(JSON.stringify({ providers: [...providers], secrets: [...secrets], items: [...items], client, audits: audits.length })) as unknown;
  return { ports, calls, snapshot, setFail: (s?: Step) => (failAt = s) };
}

const req: AuditRequest = { identity: { sub: 'soc', email: 'soc@x', groups: ['admin'], tenants: [], isAdmin: true, mfa: true }, requestId: 'r', sourceIp: '1.2.3.4', now: new Date('2026-11-25T10:00:00Z') };
const body = { type: 'oidc' as const, issuerUrl: 'https://login.example.com/t/v2.0', clientId: 'c', clientSecret: 's1', emailDomains: ['globex.example'] };
const quiet = () => undefined;

describe('tenant identity provider: order and undo', () => {
  it('a create runs domains → secret → provider → app client → item, in that order', async () => {
    const w = world();
    await putTenantIdentityProvider(w.ports, 'globex', body, req, quiet);
    expect(w.calls).toEqual(['secret.put', 'cognito.create', 'client.update', 'store.put']);
  });

  it.each(['secret', 'create', 'client', 'store'] as const)('a create failing at %s leaves nothing behind', async (step) => {
    const w = world();
    const before = w.snapshot();
    w.setFail(step);
    await expect(putTenantIdentityProvider(w.ports, 'globex', body, req, quiet)).rejects.toThrow(`${step} failed`);
    w.setFail(undefined);
    expect(w.snapshot()).toEqual(before);
  });

  it.each(['secret', 'update', 'store'] as const)('a change failing at %s puts the previous provider and secret back', async (step) => {
    const w = world();
    await putTenantIdentityProvider(w.ports, 'globex', body, req, quiet);
    const before = w.snapshot();
    w.setFail(step);
    await expect(putTenantIdentityProvider(w.ports, 'globex', { ...body, clientSecret: 's2', emailDomains: ['globex.example', 'globex.org'] }, req, quiet)).rejects.toThrow(`${step} failed`);
    w.setFail(undefined);
    expect(w.snapshot()).toEqual(before);
  });

  it('a domain routed to another provider is refused before anything is written', async () => {
    const w = world();
    await expect(putTenantIdentityProvider(w.ports, 'globex', { ...body, emailDomains: ['acme.example'] }, req, quiet)).rejects.toMatchObject({ code: 'IDP_DOMAIN_IN_USE', details: { domains: ['acme.example'] } });
    expect(w.calls).toEqual([]);
  });

  it('DELETE: app client first, then the item (commit point), provider and secret; a failing item write puts the app client back', async () => {
    const w = world();
    await putTenantIdentityProvider(w.ports, 'globex', body, req, quiet);
    const before = w.snapshot();
    w.calls.length = 0;
    w.setFail('store');
    await expect(deleteTenantIdentityProvider(w.ports, 'globex', req, quiet)).rejects.toThrow('store failed');
    w.setFail(undefined);
    expect(w.snapshot()).toEqual(before);
    w.calls.length = 0;
    await deleteTenantIdentityProvider(w.ports, 'globex', req, quiet);
    expect(w.calls).toEqual(['client.update', 'store.delete', 'cognito.delete', 'secret.delete']);
  });

  it('provider names: tenant-<id>, at most 32 characters of letters, digits and -, distinct for long ids', () => {
    expect(providerNameOf('acme')).toBe('tenant-acme');
    const a = providerNameOf('a-very-long-tenant-identifier-for-a-customer-0001');
    const b = providerNameOf('a-very-long-tenant-identifier-for-a-customer-0002');
    for (const n of [a, b]) expect(n).toMatch(/^[A-Za-z][A-Za-z0-9-]{2,31}$/);
    expect(a).not.toBe(b);
  });
});
