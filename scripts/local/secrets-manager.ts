/**
 * A local AWS Secrets Manager, just enough for the client secrets of staff-configured identity providers
 * (lambdas/data/secrets.ts; docs/local-emulation.md#identity-providers-set-by-staff): Secrets Manager's JSON 1.1
 * protocol (`X-Amz-Target: secretsmanager.<Operation>`) on a loopback HTTP port, every request SigV4-signed for
 * `secretsmanager` by an operator key (as the local user pool's administrative calls), the secrets in
 * `<dataDir>/secrets.json` (mode 0600, in the git-ignored state folder: plain text, as nothing offline is secret).
 *
 * Operations and errors (Secrets Manager API reference):
 *  - CreateSecret { Name, SecretString, Description? } → { ARN, Name, VersionId }; `ResourceExistsException`.
 *  - PutSecretValue { SecretId, SecretString } → { ARN, Name, VersionId }; GetSecretValue { SecretId } →
 *    { ARN, Name, SecretString, VersionId, CreatedDate }; DescribeSecret { SecretId }.
 *  - DeleteSecret { SecretId, ForceDeleteWithoutRecovery? }: removed at once (a recovery window is not emulated).
 *  - An unknown `SecretId` → `ResourceNotFoundException` ("Secrets Manager can't find the specified secret.");
 *    other targets → `UnknownOperationException`; a bad signature → `UnrecognizedClientException` /
 *    `InvalidSignatureException` (403).
 * `SecretId` is the name or the ARN (`arn:aws:secretsmanager:<region>:000000000000:secret:<name>-<6 chars>`).
 * Not emulated: versions and staging labels beyond the current value, rotation, resource policies, KMS.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SignatureRefused, verifySignatureV4 } from './collector-auth.js';
import type { CollectorCredential } from './config.js';

interface StoredSecret {
  name: string;
  arn: string;
  value: string;
  versionId: string;
  description?: string;
  createdDate: number;
}

export interface LocalSecretsManagerOptions {
  /** Where `secrets.json` is kept. */
  dataDir: string;
  /** Keys allowed to sign requests (the local operator key). */
  credentials: readonly CollectorCredential[];
  /** Port (0 = a free one) and interface; default 0 on 127.0.0.1. */
  port?: number;
  host?: string;
  region?: string;
}

export interface RunningSecretsManager {
  /** e.g. `http://127.0.0.1:41234` (the SDK / aws-lite `endpoint`). */
  endpoint: string;
  stop(): Promise<void>;
}

class SecretsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** Starts the local Secrets Manager (see module doc). */
export async function startLocalSecretsManager(opts: LocalSecretsManagerOptions): Promise<RunningSecretsManager> {
  const file = join(opts.dataDir, 'secrets.json');
  const region = opts.region ?? 'eu-west-1';
  const load = async (): Promise<Record<string, StoredSecret>> => (existsSync(file) ? (JSON.parse(await readFile(file, 'utf8')) as Record<string, StoredSecret>) : {});
  const save = (all: Record<string, StoredSecret>) => writeFile(file, JSON.stringify(all, null, 2), { mode: 0o600 });
  const find = (all: Record<string, StoredSecret>, id: unknown): StoredSecret => {
    const s = typeof id === 'string' ? (all[id] ?? Object.values(all).find((x) => x.arn === id)) : undefined;
    if (!s) throw new SecretsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
    return s;
  };
  const str = (v: unknown, field: string): string => {
    if (typeof v !== 'string' || v === '') throw new SecretsError('InvalidParameterException', `${field} is required.`);
    return v;
  };

  const operations: Record<string, (b: Record<string, unknown>) => Promise<Record<string, unknown>>> = {
    async CreateSecret(b) {
      const all = await load();
      const name = str(b.Name, 'Name');
      if (!/^[A-Za-z0-9/_+=.@-]{1,512}$/.test(name)) throw new SecretsError('ValidationException', 'Invalid name.');
      if (all[name]) throw new SecretsError('ResourceExistsException', `The operation failed because the secret ${name} already exists.`);
      const s: StoredSecret = {
        name,
        arn: `arn:aws:secretsmanager:${region}:000000000000:secret:${name}-${randomBytes(3).toString('hex')}`,
        value: str(b.SecretString, 'SecretString'),
        versionId: randomUUID(),
        ...(typeof b.Description === 'string' ? { description: b.Description } : {}),
        createdDate: Date.now() / 1000,
      };
      all[name] = s;
      await save(all);
      return { ARN: s.arn, Name: s.name, VersionId: s.versionId };
    },
    async PutSecretValue(b) {
      const all = await load();
      const s = find(all, b.SecretId);
      s.value = str(b.SecretString, 'SecretString');
      s.versionId = randomUUID();
      await save(all);
      return { ARN: s.arn, Name: s.name, VersionId: s.versionId, VersionStages: ['AWSCURRENT'] };
    },
    async GetSecretValue(b) {
      const s = find(await load(), b.SecretId);
      return { ARN: s.arn, Name: s.name, SecretString: s.value, VersionId: s.versionId, VersionStages: ['AWSCURRENT'], CreatedDate: s.createdDate };
    },
    async DescribeSecret(b) {
      const s = find(await load(), b.SecretId);
      return { ARN: s.arn, Name: s.name, ...(s.description ? { Description: s.description } : {}), CreatedDate: s.createdDate };
    },
    async DeleteSecret(b) {
      const all = await load();
      const s = find(all, b.SecretId);
      delete all[s.name];
      await save(all);
      return { ARN: s.arn, Name: s.name, DeletionDate: Date.now() / 1000 };
    },
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': randomUUID() }).end(JSON.stringify(body));
      const run = async () => {
        try {
          await verifySignatureV4(opts.credentials, { method: req.method ?? 'POST', url: new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), headers: req.headers, body: raw }, { service: 'secretsmanager' });
        } catch (e) {
          if (e instanceof SignatureRefused) {
            throw e.fault === 'unknown-key' || e.fault === 'missing'
              ? new SecretsError('UnrecognizedClientException', 'The security token included in the request is invalid.', 403)
              : new SecretsError('InvalidSignatureException', 'The request signature we calculated does not match the signature you provided.', 403);
          }
          throw e;
        }
        const target = String(req.headers['x-amz-target'] ?? '');
        const op = target.startsWith('secretsmanager.') ? operations[target.slice('secretsmanager.'.length)] : undefined;
        if (!op) throw new SecretsError('UnknownOperationException', `Unknown operation ${target}`);
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
        } catch {
          throw new SecretsError('SerializationException', 'Request body is not valid JSON');
        }
        reply(200, await op(body));
      };
      run().catch((e: unknown) => {
        if (e instanceof SecretsError) reply(e.status, { __type: e.type, message: e.message });
        else reply(500, { __type: 'InternalServiceError', message: (e as Error).message });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
