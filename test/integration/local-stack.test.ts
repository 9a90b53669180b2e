/**
 * The offline stack as `npm start` wires it (real dynoxide, cognito-local + compatibility layer, local
 * gateway over the Lambda handlers, seeded demo data), checked at the HTTP level:
 *  - a created incident survives a restart on the same data;
 *  - the portal config has the production shape.
 * Refused tokens and tenant isolation through the same stack are tested once, route by route, in
 * api-gateway-routes.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import type { Ports } from '../../scripts/local/config.js';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';
import { signInWithSrp } from '../../scripts/local/cognito/sign-in.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-stack-'));
let stack: RunningLocalStack;

const start = (ports: Partial<Ports>) => startLocalStack({ dataDir, ports, serveWeb: false, collector: false });

async function idToken(email: string): Promise<string> {
  const idp = new CognitoIdentityProviderClient({
    endpoint: stack.urls.cognito,
    region: stack.config.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    // SRP: the portal's app client allows only SRP and refresh, as deployed.
    const out = await signInWithSrp(idp, { userPoolId: stack.config.userPoolId, clientId: stack.config.userPoolClientId, username: email, password: DEMO_PASSWORD });
    return out.IdToken!;
  } finally {
    idp.destroy();
  }
}

async function api(method: string, p: string, token?: string, body?: unknown) {
  const res = await fetch(`${stack.urls.api}${p}`, {
    method,
    headers: { ...(token ? { Authorization: token } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  stack = await start({ dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0 });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('local stack (npm start wiring)', () => {
  it('produces a portal config of the production shape, pointing at the local endpoints', () => {
    const config = PortalConfig.parse(stack.config);
    expect(config.apiUrl).toBe(stack.urls.api);
    expect(config.userPoolEndpoint).toBe(stack.urls.cognito);
    expect(config.stage).toBe('local');
  });

  it('runs the local S3 (s3rver) with the attachments bucket, CORS for the portal origin only (issue 32 point 2)', async () => {
    const preflight = (origin: string) =>
      fetch(`${stack.urls.s3}/${stack.attachmentsBucket}`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } });
    expect((await preflight(stack.lambdaConfig.allowedOrigins[0]!)).status).toBe(200);
    expect((await preflight('https://evil.example')).status).toBe(403);
  });

  it('keeps a created incident across a restart on the same data and ports', async () => {
    const ana = await idToken('ana@acme.example');
    const created = await api('POST', '/incidents', ana, { title: 'Sobrevive al reinicio', description: 'Persistencia', severity: 'medium' });
    expect(created.status).toBe(201);
    const port = (u: string) => Number(new URL(u).port);
    const ports = { dynamodb: port(stack.urls.dynamodb), cognito: port(stack.urls.cognito), cognitoInternal: 0, api: port(stack.urls.api) };
    await stack.stop();
    stack = await start(ports);
    const again = await api('GET', `/incidents/${String(created.body.id)}`, await idToken('ana@acme.example'));
    expect(again.status).toBe(200);
    expect(again.body.title).toBe('Sobrevive al reinicio');
  });
});
