import { describe, expect, it } from 'vitest';
import { authorizeCollector, collectorPrincipal } from '../../../lambdas/domain/collectors.js';
import { ApiError } from '../../../lambdas/domain/errors.js';

describe('collectorPrincipal (docs/api.md#collectors-and-tenants)', () => {
  it('names the role of an assumed-role session, without the session', () => {
    expect(collectorPrincipal('arn:aws:sts::123456789012:assumed-role/vigia-collector/i-0abc')).toBe('arn:aws:iam::123456789012:role/vigia-collector');
    expect(collectorPrincipal('arn:aws-cn:sts::123456789012:assumed-role/c/s')).toBe('arn:aws-cn:iam::123456789012:role/c');
  });
  it('drops the path of a role ARN (an assumed-role ARN has none) and keeps user ARNs', () => {
    expect(collectorPrincipal('arn:aws:iam::123456789012:role/collectors/vigia-collector')).toBe('arn:aws:iam::123456789012:role/vigia-collector');
    expect(collectorPrincipal('arn:aws:iam::123456789012:role/vigia-collector')).toBe('arn:aws:iam::123456789012:role/vigia-collector');
    expect(collectorPrincipal('arn:aws:iam::123456789012:user/ops/collector')).toBe('arn:aws:iam::123456789012:user/ops/collector');
  });
  it('refuses anything else', () => {
    for (const arn of ['', 'collector', 'arn:aws:iam::12:role/x', 'arn:aws:sts::123456789012:federated-user/x', 'arn:aws:iam::123456789012:root']) {
      expect(collectorPrincipal(arn)).toBeNull();
    }
  });
});

describe('authorizeCollector', () => {
  const tenants = { getTenantCollectors: async (id: string) => (id === 'acme' ? ['arn:aws:iam::123456789012:role/acme-collector'] : id === 'globex' ? [] : null) };
  const codeOf = (p: Promise<unknown>) => p.then(() => 'ok', (e: unknown) => (e instanceof ApiError ? e.code : String(e)));
  it('lets a granted role write its tenant, refuses other tenants 403 and unknown ones 404', async () => {
    const caller = 'arn:aws:sts::123456789012:assumed-role/acme-collector/session-1';
    expect(await codeOf(authorizeCollector(tenants, caller, 'acme'))).toBe('ok');
    expect(await codeOf(authorizeCollector(tenants, caller, 'globex'))).toBe('FORBIDDEN');
    expect(await codeOf(authorizeCollector(tenants, caller, 'initech'))).toBe('NOT_FOUND');
    expect(await codeOf(authorizeCollector(tenants, 'arn:aws:sts::999999999999:assumed-role/acme-collector/s', 'acme'))).toBe('FORBIDDEN');
  });
});
