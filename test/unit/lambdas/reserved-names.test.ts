/**
 * Names reserved for the staff (docs/api.md#reserved-names): the domain rules, the collector grant check and
 * the providers file (`staffEmailDomains`, infra/federation-config.ts), which refuses the same domains.
 */
import { describe, expect, it } from 'vitest';
import { assertEmailDomainsNotReserved, assertTenantIdNotReserved, isReservedTenantId, reservedEmailDomains } from '../../../lambdas/domain/reserved-names.js';
import { collectorGrant } from '../../../lambdas/domain/collectors.js';
import { errorOf } from '../../support/api-errors.js';
import { ADMIN_GROUP } from '../../../lambdas/contract/routes.js';
import { ERROR_STATUS } from '../../../lambdas/contract/schemas.js';
import { parseFederation } from '../../../infra/federation-config.js';
import { lambdaConfigFromEnv, lambdaEnvironment } from '../../../lambdas/config.js';
import { localLambdaConfig } from '../../../scripts/local/config.js';


describe('reserved tenant ids', () => {
  it('the staff group is reserved, customer ids are not', () => {
    expect(isReservedTenantId(ADMIN_GROUP)).toBe(true);
    expect(isReservedTenantId('acme')).toBe(false);
    expect(isReservedTenantId('admins')).toBe(false);
    expect(errorOf(() => assertTenantIdNotReserved('admin'))).toMatchObject({ code: 'RESERVED_NAME', details: { fields: ['tenantId'], names: ['admin'] } });
    expect(errorOf(() => assertTenantIdNotReserved('acme'))).toBeUndefined();
    expect(ERROR_STATUS.RESERVED_NAME).toBe(400);
  });

  it('the collector grant checks the tenant, then the ARN', () => {
    expect(errorOf(() => collectorGrant('admin', 'arn:aws:iam::123456789012:role/c'))?.code).toBe('RESERVED_NAME');
    expect(errorOf(() => collectorGrant('acme', 'not-an-arn'))?.code).toBe('VALIDATION_FAILED');
    expect(collectorGrant('acme', 'arn:aws:sts::123456789012:assumed-role/c/session-1')).toBe('arn:aws:iam::123456789012:role/c');
  });
});

describe('staff e-mail domains', () => {
  it('the domain and its subdomains, case and a trailing dot aside; not look-alikes', () => {
    expect(reservedEmailDomains(['vigia.example', 'SOC.Vigia.Example.', 'notvigia.example', 'vigia.example.com', 'acme.example'], ['vigia.example'])).toEqual([
      'vigia.example',
      'SOC.Vigia.Example.',
    ]);
    expect(reservedEmailDomains(['vigia.example'], [])).toEqual([]);
    expect(errorOf(() => assertEmailDomainsNotReserved(['acme.example', 'vigia.example'], ['vigia.example']))).toMatchObject({
      code: 'RESERVED_NAME',
      details: { fields: ['emailDomains'], names: ['vigia.example'] },
    });
  });

  it('the providers file takes staffEmailDomains and refuses an enterprise provider routed from them', () => {
    const enterprise = (emailDomains: string[]) => ({ type: 'saml', name: 'AcmeSaml', tenant: 'acme', emailDomains, metadataUrl: 'https://idp.acme.example/metadata.xml' });
    const file = (domains: string[]) => JSON.stringify({ staffEmailDomains: ['vigia.example'], enterprise: [enterprise(domains)] });
    expect(parseFederation(file(['acme.example']), 'prod').staffEmailDomains).toEqual(['vigia.example']);
    expect(() => parseFederation(file(['acme.example', 'soc.vigia.example']), 'prod')).toThrow(/reserved for the staff.*soc\.vigia\.example/);
    expect(() => parseFederation(JSON.stringify({ enterprise: [{ ...enterprise(['acme.example']), tenant: 'admin' }] }), 'prod')).toThrow(/admin group/);
  });

  it('reach the admin Lambda through its environment', () => {
    const env = lambdaEnvironment({ stage: 'prod', tableName: 't', identityProviders: { secretPrefix: 'p/', oauthDomain: 'd', staffEmailDomains: ['vigia.example', 'soc.example'] } });
    expect(lambdaConfigFromEnv({ ...env, AWS_REGION: 'eu-west-1' }).identityProviders?.staffEmailDomains).toEqual(['vigia.example', 'soc.example']);
    const none = lambdaEnvironment({ stage: 'prod', tableName: 't', identityProviders: { secretPrefix: 'p/', oauthDomain: 'd' } });
    expect(lambdaConfigFromEnv({ ...none, AWS_REGION: 'eu-west-1' }).identityProviders?.staffEmailDomains).toEqual([]);
  });

  it('the local stack reserves its staff domain (the demo staff are @vigia.example)', () => {
    const local = localLambdaConfig({ tableName: 't', dynamodbEndpoint: 'http://127.0.0.1:8000', allowedOrigins: [], identityProviders: { oauthDomain: 'http://127.0.0.1:9', secretsManagerEndpoint: 'http://127.0.0.1:9' } });
    expect(local.identityProviders?.staffEmailDomains).toEqual(['vigia.example']);
    expect(errorOf(() => assertEmailDomainsNotReserved(['soc.vigia.example'], local.identityProviders?.staffEmailDomains ?? []))?.code).toBe('RESERVED_NAME');
  });
});
