/**
 * The offline stack's S3 (issue 32 point 2): `s3rver` (npm, MIT), a real S3-compatible server storing objects
 * under the local state dir, behind a small front that enforces what s3rver leaves out of browser-based
 * uploads. s3rver 3.7.1 accepts a `POST /<bucket>` form upload without looking at its `Policy` field at all
 * (lib/controllers/object.js lists `policy` as "unimplemented"), so on its own a presigned POST's
 * `content-length-range` or `Content-Type` condition would never refuse anything. The front checks, for every
 * form POST, as S3 does (AWS docs: "Creating a POST policy", "Authenticating requests in browser-based uploads
 * using POST (AWS Signature Version 4)"):
 *  - the SigV4 signature of the base64 policy with the local credentials (403 SignatureDoesNotMatch);
 *  - the policy's `expiration` (403 AccessDenied "Policy expired");
 *  - every condition: exact matches (`{ field: value }`, `["eq", "$field", value]`), `starts-with`, and
 *    `content-length-range` on the file's size (400 EntityTooSmall / EntityTooLarge);
 *  - that every form field but `file`, `policy`, `x-amz-signature` and `x-ignore-*` is covered by a condition
 *    (403 AccessDenied "Extra input fields").
 * Everything else (GET/HEAD/PUT with query-string or header SigV4, CORS per bucket, presigned GET expiry) is
 * s3rver's own behaviour, proxied unchanged.
 */
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';

/** The access key pair s3rver accepts by default (its `S3RVER` account); the local Lambdas sign with it. */
export const LOCAL_S3_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** Largest form POST the front buffers (bytes): 25 MiB of file plus the form fields' overhead. */
const MAX_FORM_BYTES = 26_214_400 + 64 * 1024;

/** An S3 error as the front answers it (XML body `<Error><Code>…`). */
export interface S3FormError {
  status: 400 | 403;
  code: string;
  message: string;
}

/** The decoded POST policy document (`Policy` form field, base64 JSON). */
interface PolicyDocument {
  expiration: string;
  conditions: unknown[];
}

/** HMAC-SHA256 of `data` with `key`. */
const hmac = (key: Buffer | string, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/**
 * The SigV4 signature of a POST policy: hex HMAC of the base64 policy with the signing key of the credential
 * scope `<date>/<region>/s3/aws4_request` (AWS docs, "Calculating a signature" for browser-based uploads).
 */
export function postPolicySignature(policyBase64: string, secretAccessKey: string, date: string, region: string): string {
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), 's3'), 'aws4_request');
  return createHmac('sha256', key).update(policyBase64, 'utf8').digest('hex');
}

/**
 * Checks one browser-based upload against its POST policy as S3 does (see module doc).
 * @param fields the form fields but `file`, names lower-cased
 * @param fileSize size of the `file` field in bytes
 * @param now the server's clock
 * @returns the error S3 would answer, or undefined when the upload is allowed
 */
export function checkPostPolicy(
  fields: ReadonlyMap<string, string>,
  fileSize: number,
  bucket: string,
  credentials: { accessKeyId: string; secretAccessKey: string },
  now: Date,
): S3FormError | undefined {
  const policyB64 = fields.get('policy');
  const signature = fields.get('x-amz-signature');
  const credential = fields.get('x-amz-credential');
  if (!policyB64 || !signature || !credential) {
    return { status: 403, code: 'AccessDenied', message: 'Bucket POST must contain Policy, X-Amz-Signature and X-Amz-Credential fields' };
  }
  const [keyId, date, region] = credential.split('/');
  if (keyId !== credentials.accessKeyId || !date || !region) {
    return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  }
  if (postPolicySignature(policyB64, credentials.secretAccessKey, date, region) !== signature) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  let policy: PolicyDocument;
  try {
    policy = JSON.parse(Buffer.from(policyB64, 'base64').toString('utf8')) as PolicyDocument;
  } catch {
    return { status: 400, code: 'InvalidPolicyDocument', message: 'Invalid Policy: Invalid JSON.' };
  }
  if (!(Date.parse(policy.expiration) > now.getTime())) {
    return { status: 403, code: 'AccessDenied', message: 'Invalid according to Policy: Policy expired.' };
  }
  const all = new Map(fields);
  all.set('bucket', bucket);
  const covered = new Set<string>(['bucket']);
  const failed = (c: unknown): S3FormError => ({ status: 403, code: 'AccessDenied', message: `Invalid according to Policy: Policy Condition failed: ${JSON.stringify(c)}` });
  for (const c of policy.conditions) {
    if (Array.isArray(c)) {
      const [op, a, b] = c as [string, unknown, unknown];
      if (op === 'content-length-range') {
        if (fileSize < Number(a)) return { status: 400, code: 'EntityTooSmall', message: 'Your proposed upload is smaller than the minimum allowed size' };
        if (fileSize > Number(b)) return { status: 400, code: 'EntityTooLarge', message: 'Your proposed upload exceeds the maximum allowed size' };
        continue;
      }
      const name = String(a).replace(/^\$/, '').toLowerCase();
      covered.add(name);
      const value = all.get(name) ?? '';
      if (op === 'eq' ? value !== String(b) : op === 'starts-with' ? !value.startsWith(String(b)) : true) return failed(c);
    } else if (c && typeof c === 'object') {
      for (const [k, v] of Object.entries(c)) {
        const name = k.toLowerCase();
        covered.add(name);
        if ((all.get(name) ?? '') !== String(v)) return failed(c);
      }
    }
  }
  for (const name of fields.keys()) {
    if (name === 'policy' || name === 'x-amz-signature' || name.startsWith('x-ignore-') || covered.has(name)) continue;
    return { status: 403, code: 'AccessDenied', message: `Invalid according to Policy: Extra input fields: ${name}` };
  }
  return undefined;
}

/** A running local S3. */
export interface LocalS3 {
  /** Endpoint the clients use (the checking front), e.g. `http://127.0.0.1:4569`. */
  endpoint: string;
  stop(): Promise<void>;
}

/** CORS configuration of a bucket: POST (uploads) and GET (downloads) from the portal origins only. */
function corsXml(origins: readonly string[]): string {
  const rules = origins
    .map(
      (o) =>
        `<CORSRule><AllowedOrigin>${o}</AllowedOrigin><AllowedMethod>POST</AllowedMethod><AllowedMethod>GET</AllowedMethod>` +
        `<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>300</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}

/** Sends an S3 XML error from the front (with the CORS headers an allowed origin needs to read it). */
function sendError(res: http.ServerResponse, e: S3FormError, origin: string | undefined, origins: readonly string[]): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/xml' };
  if (origin && origins.includes(origin)) headers['Access-Control-Allow-Origin'] = origin;
  res.writeHead(e.status, headers);
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${e.code}</Code><Message>${e.message.replace(/[<&]/g, ' ')}</Message></Error>`);
}

/**
 * Starts s3rver (objects under `dataDir`, buckets `buckets` created with CORS for `origins`) on an ephemeral
 * loopback port and the policy-checking front on `port` (0 = any free port).
 */
export async function startLocalS3(opts: { port: number; host?: string; dataDir: string; buckets: readonly string[]; origins: readonly string[] }): Promise<LocalS3> {
  const host = opts.host ?? '127.0.0.1';
  mkdirSync(opts.dataDir, { recursive: true });
  const cors = Buffer.from(corsXml(opts.origins));
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory: opts.dataDir,
    silent: true,
    configureBuckets: opts.buckets.map((name) => ({ name, configs: [cors] })),
  });
  const backend = (await s3.run()) as AddressInfo;
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body?: Buffer): void => {
    const upstream = http.request(
      { host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: body ? { ...req.headers, 'content-length': String(body.length) } : req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const front = http.createServer((req, res) => {
    const origin = req.headers.origin;
    const isForm = req.method === 'POST' && /^\/[^/?]+\/?(\?.*)?$/.test(req.url ?? '') && (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
    if (!isForm) return forward(req, res);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_FORM_BYTES) {
        sendError(res, { status: 400, code: 'EntityTooLarge', message: 'Your proposed upload exceeds the maximum allowed size' }, origin, opts.origins);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      const body = Buffer.concat(chunks);
      void new Request('http://s3.local/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body })
        .formData()
        .then((form) => {
          const fields = new Map<string, string>();
          let fileSize = -1;
          for (const [name, value] of form.entries()) {
            if (name === 'file') fileSize = typeof value === 'string' ? Buffer.byteLength(value) : value.size;
            else if (fileSize < 0 && typeof value === 'string') fields.set(name.toLowerCase(), value);
          }
          const bucket = decodeURIComponent((req.url ?? '').split(/[/?]/)[1] ?? '');
          const refusal = checkPostPolicy(fields, Math.max(fileSize, 0), bucket, LOCAL_S3_CREDENTIALS, new Date());
          if (refusal) sendError(res, refusal, origin, opts.origins);
          else forward(req, res, body);
        })
        .catch(() => sendError(res, { status: 400, code: 'MalformedPOSTRequest', message: 'The body of your POST request is not well-formed multipart/form-data.' }, origin, opts.origins));
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(opts.port, host, () => resolve());
  });
  const port = (front.address() as AddressInfo).port;
  return {
    endpoint: `http://${host}:${port}`,
    stop: async () => {
      await new Promise<void>((r) => front.close(() => r()));
      await s3.close();
    },
  };
}
