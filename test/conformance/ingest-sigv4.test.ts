/**
 * Conformance: IAM (Signature Version 4) authorization of the collector ingest routes (the local gateway,
 * or a deployed stage with VIGIA_TARGET), signed by clients this project did not write: the AWS SDK's
 * signer (`@smithy/signature-v4`, used as a library) and botocore (through `python3`; skipped with the
 * reason where python3 or botocore is missing).
 * How to run: docs/testing.md#the-conformance-suite.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignatureV4 } from '@smithy/signature-v4';
import { conformanceTarget, type ConformanceTarget } from '../support/conformance-target.js';

const DOCS = {
  sigv4: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html',
  payloadHash: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html#create-canonical-request',
  apiGatewayIam: 'https://docs.aws.amazon.com/apigateway/latest/developerguide/permissions.html',
  unsignedPayload: 'https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html',
} as const;

let target: ConformanceTarget;

beforeAll(async () => {
  target = await conformanceTarget();
});
afterAll(async () => {
  await target?.stop();
});

/**
 * A tenant id no stage registers: a request IAM lets through reaches the handler, which answers 404 NOT_FOUND
 * for it, never the 403 FORBIDDEN a registered tenant gives a collector it has not granted (collectors are
 * scoped to tenants), so a 403 here can only be the gateway's signature refusal.
 */
const UNREGISTERED_TENANT = `conformidad-${randomUUID().slice(0, 8)}`;
const heartbeat = () => JSON.stringify({ eventId: `conf-${randomUUID()}`, tenantId: UNREGISTERED_TENANT, deviceId: 'conformance-device', at: new Date().toISOString() });

/** Signs a POST of `body` to `path` with the SDK's signer; `applyChecksum` adds (and signs) X-Amz-Content-Sha256. */
async function sdkSign(path: string, body: string, opts: { applyChecksum: boolean; headers?: Record<string, string> }): Promise<Record<string, string>> {
  const url = new URL(`${target.apiUrl}${path}`);
  const signer = new SignatureV4({
    credentials: { accessKeyId: target.collector!.accessKeyId, secretAccessKey: target.collector!.secretAccessKey },
    region: target.region,
    service: 'execute-api',
    sha256: Sha256,
    applyChecksum: opts.applyChecksum,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'content-type': 'application/json', ...(opts.headers ?? {}) },
    body,
  });
  return signed.headers as Record<string, string>;
}

/** An answer of the API: HTTP status and the error body's `code` and `message` (the API's error shape). */
interface Answer {
  status: number;
  code?: string;
  message?: string;
}

async function post(path: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const { host: _host, ...rest } = headers;
  const res = await fetch(`${target.apiUrl}${path}`, { method: 'POST', headers: rest, body });
  const text = await res.text();
  let parsed: { code?: unknown; message?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // not JSON: status only
  }
  return {
    status: res.status,
    ...(typeof parsed.code === 'string' ? { code: parsed.code } : {}),
    ...(typeof parsed.message === 'string' ? { message: parsed.message } : {}),
  };
}

/**
 * The gateway's refusal of the signature, told apart from the handler's own 403 FORBIDDEN by its message:
 * API Gateway's IAM errors ("Missing Authentication Token", "The request signature we calculated does not
 * match…", "The security token included in the request is invalid.", "Signature expired…"), which the stage
 * returns in the API's error shape (a missing signature as 404, infra/api-stack.ts GATEWAY_ERRORS), or the
 * local gateway's 403 "Missing or invalid request signature".
 */
const GATEWAY_SIGNATURE_MESSAGE = /signature|Missing Authentication Token|security token included in the request is invalid/i;
function signatureRefused(a: Answer): boolean {
  const refused = [401, 403, 404].includes(a.status) && GATEWAY_SIGNATURE_MESSAGE.test(a.message ?? '');
  return target.kind === 'local' ? refused && a.status === 403 : refused;
}

/** A request IAM let through: the handler answered, 404 NOT_FOUND for the unregistered tenant. */
const authorised = (a: Answer) => a.status === 404 && a.code === 'NOT_FOUND' && !signatureRefused(a) && (a.message ?? '').includes(UNREGISTERED_TENANT);

describe('SigV4 on the ingest routes with the AWS SDK signer', () => {
  it(`accepts a request signed over its body with X-Amz-Content-Sha256 (${DOCS.sigv4})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const answer = await post('/ingest/heartbeats', await sdkSign('/ingest/heartbeats', body, { applyChecksum: true }), body);
    expect(authorised(answer), JSON.stringify(answer)).toBe(true);
  });

  it(`accepts a standard request without X-Amz-Content-Sha256 (the payload hash is computed from the body) (${DOCS.payloadHash})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const headers = await sdkSign('/ingest/heartbeats', body, { applyChecksum: false });
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('x-amz-content-sha256');
    const answer = await post('/ingest/heartbeats', headers, body);
    expect(authorised(answer), JSON.stringify(answer)).toBe(true);
  });

  it(`refuses (403) a captured request replayed with another body, with or without X-Amz-Content-Sha256 (${DOCS.sigv4})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    for (const applyChecksum of [true, false]) {
      const headers = await sdkSign('/ingest/heartbeats', heartbeat(), { applyChecksum });
      const answer = await post('/ingest/heartbeats', headers, heartbeat());
      expect(signatureRefused(answer), JSON.stringify(answer)).toBe(true);
    }
  });

  it(`refuses (403) UNSIGNED-PAYLOAD: the body must be covered by the signature (${DOCS.unsignedPayload})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const headers = await sdkSign('/ingest/heartbeats', body, { applyChecksum: false, headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    const answer = await post('/ingest/heartbeats', headers, body);
    expect(signatureRefused(answer), JSON.stringify(answer)).toBe(true);
  });

  it(`refuses (403) an unsigned request and one signed with an unknown key (${DOCS.apiGatewayIam})`, async () => {
    const body = heartbeat();
    const unsigned = await post('/ingest/heartbeats', { 'content-type': 'application/json' }, body);
    expect(signatureRefused(unsigned), JSON.stringify(unsigned)).toBe(true);
    const url = new URL(`${target.apiUrl}/ingest/heartbeats`);
    const stranger = new SignatureV4({
      credentials: { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      region: target.region,
      service: 'execute-api',
      sha256: Sha256,
    });
    const signed = await stranger.sign({
      method: 'POST', protocol: url.protocol, hostname: url.hostname, ...(url.port ? { port: Number(url.port) } : {}),
      path: url.pathname, query: {}, headers: { host: url.host, 'content-type': 'application/json' }, body,
    });
    const stranger403 = await post('/ingest/heartbeats', signed.headers as Record<string, string>, body);
    expect(signatureRefused(stranger403), JSON.stringify(stranger403)).toBe(true);
  });
});

/** botocore's SigV4Auth signs a POST and sends it with urllib (botocore's own signer, no SDK of this project). */
const BOTOCORE_SCRIPT = `
import json, sys, urllib.request, urllib.error
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
args = json.loads(sys.argv[1])
req = AWSRequest(method='POST', url=args['url'], data=args['signedBody'].encode(), headers={'Content-Type': 'application/json'})
SigV4Auth(Credentials(args['key'], args['secret']), 'execute-api', args['region']).add_auth(req)
headers = dict(req.headers.items())
out = urllib.request.Request(args['url'], data=args['sentBody'].encode(), method='POST', headers=headers)
try:
    res = urllib.request.urlopen(out, timeout=20)
    status, text = res.status, res.read()
except urllib.error.HTTPError as e:
    status, text = e.code, e.read()
try:
    body = json.loads(text)
except ValueError:
    body = {}
answer = {'status': status, 'headers': sorted(k.lower() for k in headers)}
for key in ('code', 'message'):
    if isinstance(body.get(key), str):
        answer[key] = body[key]
print(json.dumps(answer))
`;

function botocoreAvailable(): string | null {
  const probe = spawnSync('python3', ['-c', 'import botocore'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  if (probe.status !== 0) return 'botocore is not installed for python3 (pip install boto3)';
  return null;
}

/** Runs the botocore script asynchronously: the local gateway answers from this same process. */
async function botocoreSend(signedBody: string, sentBody: string): Promise<Answer & { headers: string[] }> {
  const args = {
    url: `${target.apiUrl}/ingest/heartbeats`,
    key: target.collector!.accessKeyId,
    secret: target.collector!.secretAccessKey,
    region: target.region,
    signedBody,
    sentBody,
  };
  const { stdout } = await promisify(execFile)('python3', ['-c', BOTOCORE_SCRIPT, JSON.stringify(args)], { encoding: 'utf8' });
  return JSON.parse(stdout) as Answer & { headers: string[] };
}

describe('SigV4 on the ingest routes with botocore', () => {
  it(`accepts botocore's standard signature (no X-Amz-Content-Sha256) and refuses its replay with another body (${DOCS.sigv4})`, async (ctx) => {
    const missing = botocoreAvailable();
    if (missing) return ctx.skip(`${missing}: the botocore half of the ingest conformance is skipped`);
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const ok = await botocoreSend(body, body);
    expect(ok.headers).not.toContain('x-amz-content-sha256');
    expect(authorised(ok), JSON.stringify(ok)).toBe(true);
    const replayed = await botocoreSend(heartbeat(), heartbeat());
    expect(signatureRefused(replayed), JSON.stringify(replayed)).toBe(true);
  });
});
