/**
 * Trust boundaries of the local stack, end to end through the local gateway (seeded stack, random ports,
 * collector simulator off):
 *  - a collector writes only the tenants granted to its role: the acme-only key signs with SigV4 and gets
 *    403 in globex, 202 in acme; `platform:grant-collector` (a real subprocess) grants and revokes
 *    (docs/api.md#collectors-and-tenants);
 *  - staff accounts need TOTP: an admin without it gets 403 MFA_REQUIRED on admin routes and on other
 *    tenants; after AssociateSoftwareToken/VerifySoftwareToken (code from otplib) and a token refresh the ID
 *    token carries `vigia:mfa` (the local pool runs the project's pre token generation trigger) and
 *    /analytics answers 200 (docs/api.md#staff-accounts-and-totp).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  GetTokensFromRefreshTokenCommand,
  VerifySoftwareTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithSrp } from '../../scripts/local/cognito/sign-in.js';
import { seedCognito } from '../../scripts/local/seed.js';
import { signCollectorRequest } from '../../scripts/local/collector-auth.js';
import { DEMO_REGION, LOCAL_ACME_COLLECTOR_CREDENTIAL, LOCAL_COLLECTOR_CREDENTIAL, type CollectorCredential } from '../../scripts/local/config.js';
import { startLocalStack, type RunningLocalStack } from '../../scripts/local/stack.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let stack: RunningLocalStack;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vigia-trust-'));
  stack = await startLocalStack({
    dataDir,
    persist: false,
    serveWeb: false,
    collector: false,
    ports: { dynamodb: 0, cognito: 0, cognitoInternal: 0, api: 0, web: 0 },
  });
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** POSTs a SigV4-signed JSON event as `cred`; returns status and error code. */
async function ingest(cred: CollectorCredential, p: string, body: unknown): Promise<{ status: number; code: string | undefined }> {
  const url = `${stack.urls.api}${p}`;
  const text = JSON.stringify(body);
  const headers = await signCollectorRequest(cred, { method: 'POST', url, body: text, headers: { 'content-type': 'application/json' } });
  const res = await fetch(url, { method: 'POST', headers, body: text });
  const json = (await res.json()) as { code?: string };
  return { status: res.status, code: json.code };
}

async function grantCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/platform/grant-collector.ts', '--region', DEMO_REGION, '--table', stack.tableName, '--dynamodb-endpoint', stack.urls.dynamodb, ...args],
      { cwd: ROOT, timeout: 60_000, env: { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_REGION: '' } },
    );
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const raise = (tenantId: string, alarmId: string) => ({
  action: 'raise',
  eventId: `ev-${alarmId}`,
  tenantId,
  deviceId: 'dev-001',
  alarmId,
  severity: 'high',
  title: 'CPU al 100 %',
  at: new Date().toISOString(),
});

describe('collectors are scoped to tenants', () => {
  it('the acme collector cannot raise an alarm, send a heartbeat or an event in globex (403) and can in acme', async () => {
    expect(await ingest(LOCAL_ACME_COLLECTOR_CREDENTIAL, '/ingest/device-alarms', raise('globex', 'scope-gx-1'))).toEqual({ status: 403, code: 'FORBIDDEN' });
    expect(await ingest(LOCAL_ACME_COLLECTOR_CREDENTIAL, '/ingest/heartbeats', { eventId: 'hb-gx', tenantId: 'globex', deviceId: 'dev-001', at: new Date().toISOString() })).toEqual({ status: 403, code: 'FORBIDDEN' });
    const o365 = { eventId: 'o365-gx', tenantId: 'globex', workload: 'Exchange', operation: 'New-InboxRule', user: 'ana', result: 'Succeeded', clientIp: null, at: new Date().toISOString() };
    expect(await ingest(LOCAL_ACME_COLLECTOR_CREDENTIAL, '/ingest/office365/events', o365)).toEqual({ status: 403, code: 'FORBIDDEN' });

    expect((await ingest(LOCAL_ACME_COLLECTOR_CREDENTIAL, '/ingest/device-alarms', raise('acme', 'scope-ac-1'))).status).toBe(202);
    // The demo collector is granted every demo tenant.
    expect((await ingest(LOCAL_COLLECTOR_CREDENTIAL, '/ingest/device-alarms', raise('globex', 'scope-gx-2'))).status).toBe(202);
  });

  it('platform:grant-collector grants a tenant to a role and revokes it', async () => {
    const role = 'arn:aws:iam::000000000000:role/vigia-local-collector-acme';
    const granted = await grantCli(['--tenant', 'globex', '--role-arn', role]);
    expect(granted.code, granted.stderr).toBe(0);
    expect(JSON.parse(granted.stdout)).toMatchObject({ tenant: 'globex', principal: role });
    expect(JSON.parse(granted.stdout).collectors).toContain(role);
    expect((await ingest(LOCAL_ACME_COLLECTOR_CREDENTIAL, '/ingest/device-alarms', raise('globex', 'scope-gx-3'))).status).toBe(202);

    // An assumed-role session ARN names the same role.
    const revoked = await grantCli(['--tenant', 'globex', '--role-arn', 'arn:aws:sts::000000000000:assumed-role/vigia-local-collector-acme/any-session', '--revoke']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout).collectors).not.toContain(role);
    expect((await ingest(LOCAL_ACME_COLLECTOR_CREDENTIAL, '/ingest/device-alarms', raise('globex', 'scope-gx-4'))).status).toBe(403);

    const unknown = await grantCli(['--tenant', 'initech', '--role-arn', role]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('tenant initech is not registered');
  });
});

describe('staff accounts need TOTP', () => {
  const EMAIL = 'guardia@vigia.example';
  const PASSWORD = 'Vigia-Guardia-2026';
  const get = async (p: string, idToken: string): Promise<{ status: number; code: string | undefined }> => {
    const res = await fetch(`${stack.urls.api}${p}`, { headers: { Authorization: idToken } });
    const json = (await res.json()) as { code?: string };
    return { status: res.status, code: json.code };
  };

  it('an admin without TOTP gets 403 MFA_REQUIRED on admin routes and other tenants; with TOTP set up and a refresh, 200', async () => {
    await seedCognito(stack.urls.cognito, stack.config.userPoolId, [{ email: EMAIL, password: PASSWORD, groups: ['admin'], description: 'staff without TOTP' }]);
    const idp = new CognitoIdentityProviderClient({ endpoint: stack.urls.cognito, region: DEMO_REGION, credentials: { accessKeyId: 'unused', secretAccessKey: 'unused' } });
    try {
      const first = await signInWithSrp(idp, { userPoolId: stack.config.userPoolId, clientId: stack.config.userPoolClientId, username: EMAIL, password: PASSWORD });
      expect(decodeJwt(first.IdToken!)['vigia:mfa']).toBeUndefined();
      expect(await get('/analytics', first.IdToken!)).toEqual({ status: 403, code: 'MFA_REQUIRED' });
      expect(await get('/tenants', first.IdToken!)).toEqual({ status: 403, code: 'MFA_REQUIRED' });
      expect(await get('/incidents?tenant=globex', first.IdToken!)).toEqual({ status: 403, code: 'MFA_REQUIRED' });
      expect((await get('/me', first.IdToken!)).status).toBe(200);

      const { SecretCode } = await idp.send(new AssociateSoftwareTokenCommand({ AccessToken: first.AccessToken! }));
      const code = generateSync({ secret: SecretCode!, algorithm: 'sha1', digits: 6, period: 30 });
      expect((await idp.send(new VerifySoftwareTokenCommand({ AccessToken: first.AccessToken!, UserCode: code, FriendlyDeviceName: 'móvil' }))).Status).toBe('SUCCESS');

      const refreshed = await idp.send(new GetTokensFromRefreshTokenCommand({ ClientId: stack.config.userPoolClientId, RefreshToken: first.RefreshToken! }));
      const idToken = refreshed.AuthenticationResult!.IdToken!;
      expect(decodeJwt(idToken)['vigia:mfa']).toBe('totp');
      expect((await get('/analytics', idToken)).status).toBe(200);
      expect((await get('/incidents?tenant=globex', idToken)).status).toBe(200);
    } finally {
      idp.destroy();
    }
  });
});
