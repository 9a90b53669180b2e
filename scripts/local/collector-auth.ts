/**
 * SigV4 for the collector ingest routes of the LOCAL stack.
 *
 * In AWS the ingest methods use AuthorizationType.IAM: API Gateway verifies the Signature Version 4 of the
 * request (AWS General Reference, "Signature Version 4 signing process") against the caller's IAM
 * credentials and passes the principal as `requestContext.identity.userArn`. Locally there is no IAM, so
 * the local gateway verifies signatures made with the local access key (`LOCAL_COLLECTOR_CREDENTIAL` in
 * `./config.ts`; `npm start` reads `VIGIA_COLLECTOR_ACCESS_KEY_ID` / `VIGIA_COLLECTOR_SECRET_ACCESS_KEY`
 * to replace it) by signing the received request again with `@smithy/signature-v4` (the AWS SDK's own signer) and comparing signatures
 * in constant time. Requests older/newer than 5 minutes (`X-Amz-Date`) are refused, as AWS does.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { CollectorCredential } from './config.js';

/** Service name in the credential scope of API Gateway invocations. */
export const EXECUTE_API_SERVICE = 'execute-api';

export { LOCAL_COLLECTOR_CREDENTIAL, type CollectorCredential } from './config.js';

function signer(cred: CollectorCredential, region: string, service = EXECUTE_API_SERVICE, applyChecksum = true): SignatureV4 {
  return new SignatureV4({
    credentials: { accessKeyId: cred.accessKeyId, secretAccessKey: cred.secretAccessKey },
    region,
    service,
    sha256: Sha256,
    applyChecksum,
  });
}

/**
 * Signs a request to `url` (absolute) for the collectors; returns the headers to send (Host, X-Amz-Date,
 * X-Amz-Content-Sha256, Authorization, plus `headers`).
 */
export async function signCollectorRequest(
  cred: CollectorCredential,
  req: { method: string; url: string; body?: string; headers?: Record<string, string> },
  region = 'eu-west-1',
  signingDate = new Date(),
): Promise<Record<string, string>> {
  const u = new URL(req.url);
  const signed = await signer(cred, region).sign(
    {
      method: req.method,
      protocol: u.protocol,
      hostname: u.hostname,
      ...(u.port ? { port: Number(u.port) } : {}),
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: { host: u.host, ...(req.headers ?? {}) },
      ...(req.body !== undefined ? { body: req.body } : {}),
    },
    { signingDate },
  );
  return signed.headers as Record<string, string>;
}

/** Why a SigV4 request was refused (logged by the gateway; the client gets 403 like API Gateway). */
export class SignatureRejected extends Error {}

const AUTH_RE =
  /^AWS4-HMAC-SHA256 Credential=([A-Za-z0-9]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z-]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/** Maximum clock difference between `X-Amz-Date` and now, ms (AWS allows 5 minutes). */
export const MAX_SIGNATURE_SKEW_MS = 5 * 60_000;

/** Why a refused signature was refused, in the words of the AWS error it stands for. */
export type SignatureFault =
  /** No `Authorization` header (AWS: MissingAuthenticationTokenException / "Missing Authentication Token"). */
  | 'missing'
  /** An access key the stack does not know (AWS: UnrecognizedClientException / InvalidClientTokenId). */
  | 'unknown-key'
  /** Anything else: garbled header, wrong service, stale date, body or signature mismatch (AWS: InvalidSignatureException / SignatureDoesNotMatch). */
  | 'invalid';

/** A refused signature with its {@link SignatureFault}. */
export class SignatureRefused extends SignatureRejected {
  constructor(
    readonly fault: SignatureFault,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Verifies a Signature Version 4 request by signing it again with `@smithy/signature-v4` (the AWS SDK's
 * signer) and comparing signatures in constant time. What it enforces, as AWS does
 * (docs/local-emulation.md#api-gateway):
 *  - the credential scope names `service`, the access key is one of `credentials`, `host` and `x-amz-date`
 *    are signed, and `X-Amz-Date` is within {@link MAX_SIGNATURE_SKEW_MS} of `now`;
 *  - the signature covers the body: the payload hash is always computed from the body received; an
 *    `X-Amz-Content-Sha256` header, when present, must equal it (`UNSIGNED-PAYLOAD` and a hash of another
 *    body are refused), and a request without that header (botocore and most SDKs for execute-api and
 *    JSON services) is verified over the body's own hash.
 * @param headers lower-cased request headers as received.
 * @returns the matching credential.
 * @throws SignatureRefused (a {@link SignatureRejected}) naming the fault.
 */
export async function verifySignatureV4(
  credentials: readonly CollectorCredential[],
  req: { method: string; url: URL; headers: Record<string, string | string[] | undefined>; body: string | Buffer },
  options: { service: string; now?: number },
): Promise<CollectorCredential> {
  const now = options.now ?? Date.now();
  const auth = req.headers.authorization;
  if (auth === undefined || auth === '') throw new SignatureRefused('missing', 'missing Authorization header');
  const m = typeof auth === 'string' ? AUTH_RE.exec(auth) : null;
  if (!m) throw new SignatureRefused('invalid', 'malformed SigV4 Authorization header');
  const [, keyId, scopeDate, region, service, signedList, signature] = m as unknown as [string, string, string, string, string, string, string];
  const cred = credentials.find((c) => c.accessKeyId === keyId);
  if (!cred) throw new SignatureRefused('unknown-key', 'unknown access key');
  if (service !== options.service) throw new SignatureRefused('invalid', `wrong service ${service}`);
  const amzDate = req.headers['x-amz-date'];
  const dm = typeof amzDate === 'string' ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate) : null;
  if (!dm || amzDate!.slice(0, 8) !== scopeDate) throw new SignatureRefused('invalid', 'missing or inconsistent X-Amz-Date');
  const date = new Date(Date.UTC(+dm[1]!, +dm[2]! - 1, +dm[3]!, +dm[4]!, +dm[5]!, +dm[6]!));
  if (Math.abs(now - date.getTime()) > MAX_SIGNATURE_SKEW_MS) throw new SignatureRefused('invalid', 'signature expired or from the future');
  const signedNames = signedList.split(';');
  if (!signedNames.includes('host') || !signedNames.includes('x-amz-date')) throw new SignatureRefused('invalid', 'host and x-amz-date must be signed');
  const bodyHash = createHash('sha256').update(req.body).digest('hex');
  const claimed = req.headers['x-amz-content-sha256'];
  if (claimed !== undefined && claimed !== bodyHash) {
    throw new SignatureRefused('invalid', claimed === 'UNSIGNED-PAYLOAD' ? 'UNSIGNED-PAYLOAD is not accepted' : 'X-Amz-Content-Sha256 does not match the body');
  }
  const headers: Record<string, string> = {};
  for (const n of signedNames) {
    const v = req.headers[n];
    if (v === undefined) throw new SignatureRefused('invalid', `signed header ${n} missing`);
    headers[n] = Array.isArray(v) ? v.join(',') : v;
  }
  // applyChecksum false: the signer must not add an X-Amz-Content-Sha256 the client did not send (and sign);
  // the payload hash it uses is then computed from the body (or taken from the header checked above).
  const resigned = await signer(cred, region, options.service, false).sign(
    {
      method: req.method,
      protocol: 'http:',
      hostname: req.url.hostname,
      path: req.url.pathname,
      query: Object.fromEntries(req.url.searchParams),
      headers,
      body: req.body,
    },
    { signingDate: date, signableHeaders: new Set(signedNames) },
  );
  const expected = /Signature=([0-9a-f]{64})/.exec(String(resigned.headers.authorization ?? resigned.headers.Authorization))?.[1] ?? '';
  const a = Buffer.from(expected);
  const b = Buffer.from(signature);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new SignatureRefused('invalid', 'signature does not match');
  return cred;
}

/**
 * Verifies a SigV4-signed collector request received by the local gateway ({@link verifySignatureV4} for
 * the `execute-api` service).
 * @param headers lower-cased request headers as received.
 * @returns the matching credential.
 * @throws SignatureRejected (no/garbled Authorization, unknown key, wrong service, stale date, body or signature mismatch).
 */
export function verifyCollectorSignature(
  credentials: readonly CollectorCredential[],
  req: { method: string; url: URL; headers: Record<string, string | string[] | undefined>; body: string },
  now = Date.now(),
): Promise<CollectorCredential> {
  return verifySignatureV4(credentials, req, { service: EXECUTE_API_SERVICE, now });
}
