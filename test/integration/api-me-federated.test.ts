/**
 * `GET /me` says whether the caller is a federated user (docs/api.md#me; issue 32 point 7), over the REAL
 * account handler on dynoxide, the response checked against the OpenAPI document by `call`: from the ID
 * token's `identities` claim (as API Gateway passes it, JSON text), `federated: true` and the provider name;
 * a native user `federated: false` and no provider; a malformed claim counts as native (never a guess).
 */
import { describe, expect, it } from 'vitest';
import { buildPath, ROUTES, type RouteDef } from '../../lambdas/contract/routes.js';
import type { Me } from '../../lambdas/contract/schemas.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call } from '../support/in-process-api.js';

const ctx = useExampleApi({ table: 'vigia-me-federated' });
const getMe = ROUTES.find((r) => r.operationId === 'getMe') as RouteDef;
async function me(caller: CallerSpec): Promise<Me> {
  const res = await call(ctx.handlers[getMe.handler], { method: getMe.method, path: buildPath(getMe.path, {}), query: {}, caller });
  expect(res.statusCode, res.body).toBe(200);
  return bodyOf<Me>(res);
}

describe('GET /me: federated users', () => {
  it('federated: true and the provider from the identities claim; native and malformed: false, no provider', async () => {
    const identities = JSON.stringify([{ userId: 'carla-oid', providerName: 'AcmeEntraID', providerType: 'OIDC', issuer: null, primary: 'true', dateCreated: '1700000000000' }]);
    const carla = await me({ sub: 'u-carla', email: 'carla@acme.example', groups: ['acme'], identities });
    expect(carla).toMatchObject({ federated: true, identityProvider: 'AcmeEntraID', tenants: [{ id: 'acme' }] });
    const ana = await me({ sub: 'u-acme', email: 'ana@acme.example', groups: ['acme'] });
    expect(ana.federated).toBe(false);
    expect(ana).not.toHaveProperty('identityProvider');
    const odd = await me({ sub: 'u-odd', email: 'odd@acme.example', groups: ['acme'], identities: 'not json' });
    expect(odd.federated).toBe(false);
  });
});
