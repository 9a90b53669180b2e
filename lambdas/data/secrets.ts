/**
 * `SecretsPort` over AWS Secrets Manager (`awsJson11` in `aws-lite.ts`: JSON 1.1 protocol, target
 * `secretsmanager.<Operation>`): the client secrets of staff-configured identity providers
 * (docs/api.md#tenant-identity-provider). Names are `<stage prefix><tenant id>`; the admin Lambda's role may use
 * only names under its stage's prefix (infra/api-stack.ts).
 *
 * Offline, `endpoint` is the local Secrets Manager (scripts/local/secrets-manager.ts; docs/local-emulation.md).
 * Errors: `ResourceNotFoundException` → null / nothing (get, delete); others reject with `name` = the error code.
 */
import type { SecretsPort } from '../domain/identity-providers.js';
import { type AwsCredentials, awsJson11 } from './table/aws-lite.js';

/** The IAM actions this module calls. */
export const SECRETS_ACTIONS = [
  'secretsmanager:CreateSecret',
  'secretsmanager:PutSecretValue',
  'secretsmanager:GetSecretValue',
  'secretsmanager:DeleteSecret',
] as const;

export interface SecretsManagerOptions {
  region: string;
  endpoint?: string | undefined;
  credentials?: AwsCredentials | undefined;
}

/** The port (see module doc). */
export function secretsManager(opts: SecretsManagerOptions): SecretsPort {
  const call = awsJson11({ service: 'secretsmanager', targetPrefix: 'secretsmanager', region: opts.region, endpoint: opts.endpoint, credentials: opts.credentials });
  const notFound = (e: unknown) => (e as Error).name === 'ResourceNotFoundException';
  return {
    async put(name, value) {
      try {
        await call('PutSecretValue', { SecretId: name, SecretString: value });
      } catch (e) {
        if (!notFound(e)) throw e;
        await call('CreateSecret', { Name: name, SecretString: value, Description: 'Vigía: client secret of a tenant\u2019s identity provider (set from the administration screen)' });
      }
    },
    async get(name) {
      try {
        const r = await call('GetSecretValue', { SecretId: name });
        return typeof r.SecretString === 'string' ? r.SecretString : null;
      } catch (e) {
        if (notFound(e)) return null;
        throw e;
      }
    },
    async delete(name) {
      try {
        await call('DeleteSecret', { SecretId: name, ForceDeleteWithoutRecovery: true });
      } catch (e) {
        if (!notFound(e)) throw e;
      }
    },
  };
}
