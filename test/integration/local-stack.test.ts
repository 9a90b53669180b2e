/**
 * The offline stack as `npm start` wires it (real dynoxide, cognito-local + compatibility layer, local
 * gateway over the Lambda handlers, seeded demo data): the issue-2 acceptance checks at the HTTP level.
 *  - 401 for a missing, expired or tampered ID token (before any handler runs);
 *  - 404 for a customer asking for another tenant's incident, whose id does not exist in its own tenant;
 *  - a created incident survives a restart on the same data;
 *  - the portal config has the production shape.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortalConfig } from '../../lambdas/contract/portal-config.js';
import { DEMO_PASSWORD } from '../../scripts/local/demo-data.js';
import { startLocalStack, type Ports, type RunningLocalStack } from '../../scripts/local/stack.js';

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
    const out = await idp.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: stack.config.userPoolClientId,
        AuthParameters: { USERNAME: email, PASSWORD: DEMO_PASSWORD },
      }),
    );
    return out.AuthenticationResult!.IdToken!;
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

  it('answers 401 to a missing, expired or tampered ID token', async () => {
    expect((await api('GET', '/incidents')).status).toBe(401);
    const token = await idToken('ana@acme.example');
    const [h, p, sig] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['globex'] })).toString('base64url')}.${sig}`;
    const expired = `${h}.${Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url')}.${sig}`;
    for (const bad of [tampered, expired, `${h}.${p}.${sig.slice(0, -4)}AAAA`]) {
      const res = await api('GET', '/incidents', bad);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED' });
    }
    expect((await api('GET', '/incidents', token)).status).toBe(200);
  });

  it("answers 404 to a customer asking for another tenant's incident", async () => {
    const ana = await idToken('ana@acme.example');
    const bruno = await idToken('bruno@globex.example');
    // Acme's newest incident gets a number Globex has never used.
    for (let i = 0; i < 3; i++) {
      const created = await api('POST', '/incidents', ana, { title: `Solo Acme ${i}`, description: 'Prueba de aislamiento', severity: 'low' });
      expect(created.status).toBe(201);
    }
    const acmeList = await api('GET', '/incidents?limit=1', ana);
    const id = (acmeList.body.items as Array<{ id: string }>)[0]!.id;
    const globexIds = new Set<string>();
    let cursor: string | null = null;
    do {
      const page = await api('GET', `/incidents?limit=100${cursor ? `&cursor=${cursor}` : ''}`, bruno);
      (page.body.items as Array<{ id: string }>).forEach((x) => globexIds.add(x.id));
      cursor = page.body.nextCursor as string | null;
    } while (cursor);
    expect(globexIds.has(id)).toBe(false);

    const foreign = await api('GET', `/incidents/${id}`, bruno);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'NOT_FOUND' });
    expect(JSON.stringify(foreign.body)).not.toContain('Solo Acme');
    const own = await api('GET', `/incidents/${id}`, ana);
    expect(own.status).toBe(200);
    expect(own.body.title).toBe('Solo Acme 2');
    // Nor can Bruno pick Acme as his tenant.
    expect((await api('GET', `/incidents/${id}?tenant=acme`, bruno)).status).toBe(403);
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
