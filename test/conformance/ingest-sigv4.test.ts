/**
 * Conformance: IAM (Signature Version 4) authorization of the collector ingest routes (the local gateway,
 * or a deployed stage with VIGIA_TARGET), signed by clients this project did not write: the AWS SDK's
 * signer (`@smithy/signature-v4`, used as a library) and botocore (through `python3`; skipped with the
 * reason where python3 or botocore is missing).
 * How to run: docs/testing.md#the-conformance-suite.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, createHmac, randomUUID, type Hash, type Hmac } from 'node:crypto';
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

/** SHA-256 / HMAC-SHA-256 with node:crypto, in the shape the SDK's signer takes (`Checksum`). */
type SourceData = string | ArrayBuffer | ArrayBufferView;
const bytes = (d: SourceData): string | Buffer =>
  typeof d === 'string' ? d : ArrayBuffer.isView(d) ? Buffer.from(d.buffer, d.byteOffset, d.byteLength) : Buffer.from(d);
class Sha256 {
  private h: Hash | Hmac;
  private readonly secret: string | Buffer | undefined;
  constructor(secret?: SourceData) {
    this.secret = secret === undefined ? undefined : bytes(secret);
    this.h = this.make();
  }
  private make(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', this.secret);
  }
  update(data: SourceData): void {
    this.h.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.h.digest());
  }
  reset(): void {
    this.h = this.make();
  }
}

const heartbeat = () => JSON.stringify({ eventId: `conf-${randomUUID()}`, tenantId: 'acme', deviceId: 'conformance-device', at: new Date().toISOString() });

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

async function post(path: string, headers: Record<string, string>, body: string): Promise<number> {
  const { host: _host, ...rest } = headers;
  const res = await fetch(`${target.apiUrl}${path}`, { method: 'POST', headers: rest, body });
  await res.arrayBuffer();
  return res.status;
}

/** The status of a request IAM let through: the handler's answer (202/200, or 404 for a device it does not know). */
const authorised = (status: number) => status !== 403 && status < 500;

describe('SigV4 on the ingest routes with the AWS SDK signer', () => {
  it(`accepts a request signed over its body with X-Amz-Content-Sha256 (${DOCS.sigv4})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const status = await post('/ingest/heartbeats', await sdkSign('/ingest/heartbeats', body, { applyChecksum: true }), body);
    expect(authorised(status), `status ${status}`).toBe(true);
  });

  it(`accepts a standard request without X-Amz-Content-Sha256 (the payload hash is computed from the body) (${DOCS.payloadHash})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const headers = await sdkSign('/ingest/heartbeats', body, { applyChecksum: false });
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('x-amz-content-sha256');
    const status = await post('/ingest/heartbeats', headers, body);
    expect(authorised(status), `status ${status}`).toBe(true);
  });

  it(`refuses (403) a captured request replayed with another body, with or without X-Amz-Content-Sha256 (${DOCS.sigv4})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    for (const applyChecksum of [true, false]) {
      const headers = await sdkSign('/ingest/heartbeats', heartbeat(), { applyChecksum });
      expect(await post('/ingest/heartbeats', headers, heartbeat())).toBe(403);
    }
  });

  it(`refuses (403) UNSIGNED-PAYLOAD: the body must be covered by the signature (${DOCS.unsignedPayload})`, async (ctx) => {
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const headers = await sdkSign('/ingest/heartbeats', body, { applyChecksum: false, headers: { 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' } });
    expect(await post('/ingest/heartbeats', headers, body)).toBe(403);
  });

  it(`refuses (403) an unsigned request and one signed with an unknown key (${DOCS.apiGatewayIam})`, async () => {
    const body = heartbeat();
    expect(await post('/ingest/heartbeats', { 'content-type': 'application/json' }, body)).toBe(403);
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
    expect(await post('/ingest/heartbeats', signed.headers as Record<string, string>, body)).toBe(403);
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
    status = urllib.request.urlopen(out, timeout=20).status
except urllib.error.HTTPError as e:
    status = e.code
print(json.dumps({'status': status, 'headers': sorted(k.lower() for k in headers)}))
`;

function botocoreAvailable(): string | null {
  const probe = spawnSync('python3', ['-c', 'import botocore'], { encoding: 'utf8' });
  if (probe.error) return 'python3 is not installed';
  if (probe.status !== 0) return 'botocore is not installed for python3 (pip install boto3)';
  return null;
}

/** Runs the botocore script asynchronously: the local gateway answers from this same process. */
async function botocoreSend(signedBody: string, sentBody: string): Promise<{ status: number; headers: string[] }> {
  const args = {
    url: `${target.apiUrl}/ingest/heartbeats`,
    key: target.collector!.accessKeyId,
    secret: target.collector!.secretAccessKey,
    region: target.region,
    signedBody,
    sentBody,
  };
  const { stdout } = await promisify(execFile)('python3', ['-c', BOTOCORE_SCRIPT, JSON.stringify(args)], { encoding: 'utf8' });
  return JSON.parse(stdout) as { status: number; headers: string[] };
}

describe('SigV4 on the ingest routes with botocore', () => {
  it(`accepts botocore's standard signature (no X-Amz-Content-Sha256) and refuses its replay with another body (${DOCS.sigv4})`, async (ctx) => {
    const missing = botocoreAvailable();
    if (missing) return ctx.skip(`${missing}: the botocore half of the ingest conformance is skipped`);
    if (!target.collector) return ctx.skip('set VIGIA_COLLECTOR_ACCESS_KEY_ID and VIGIA_COLLECTOR_SECRET_ACCESS_KEY');
    const body = heartbeat();
    const ok = await botocoreSend(body, body);
    expect(ok.headers).not.toContain('x-amz-content-sha256');
    expect(authorised(ok.status), `status ${ok.status}`).toBe(true);
    expect((await botocoreSend(heartbeat(), heartbeat())).status).toBe(403);
  });
});
