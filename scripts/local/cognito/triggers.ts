/**
 * The local user pool's Lambda triggers: cognito-local invokes a configured trigger through AWS Lambda's
 * Invoke API (`POST /2015-03-31/functions/<name>/invocations`, its `LambdaClient.endpoint`); the
 * compatibility proxy serves that path with the project's OWN trigger code, so the local pool and the deployed
 * one run one implementation:
 *  - PreTokenGeneration → `createPreTokenGenerationHandler` (lambdas/triggers/pre-token-generation.ts), with
 *    AdminGetUser on the local pool itself, signed with the operator key as the deployed trigger's role
 *    signs it (docs/api.md#staff-accounts-and-totp).
 *    Given `recordAudit` (the local stack passes the table's audit writer), a sign-in of a user in no group is
 *    recorded as an access request, as the deployed trigger does with its table (docs/api.md#access-requests).
 *    Given `federatedTenants` (the local identity providers' tenants), a federated user is put in its
 *    provider's tenant group with AdminAddUserToGroup on the local pool (docs/platform.md#federated-sign-in).
 * cognito-local calls the trigger at every token issue (sign-in, refresh), as Cognito does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { adminAddUserToGroup, adminGetUserMfa, createPreTokenGenerationHandler, type RecordAudit } from '../../../lambdas/triggers/pre-token-generation.js';
import type { FederatedTenants } from '../../../lambdas/triggers/federation.js';
import type { CollectorCredential } from '../config.js';

/** Function name of the pre token generation trigger in cognito-local's `TriggerFunctions`. */
export const LOCAL_PRE_TOKEN_GENERATION_FUNCTION = 'vigia-local-pre-token-generation';

/** Path prefix of Lambda's Invoke API (API version 2015-03-31). */
const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations(?:\?.*)?$/;

/** Whether a request to the proxy is a trigger invocation from cognito-local. */
export const isTriggerInvocation = (req: IncomingMessage): boolean => req.method === 'POST' && INVOKE_PATH.test(req.url ?? '');

/** The triggers of the local pool, by function name. */
export interface LocalTriggers {
  /** Answers one Invoke request (200 with the trigger's event as payload; 404 for an unknown function; errors as Lambda's `X-Amz-Function-Error: Unhandled`). */
  serve(req: IncomingMessage, res: ServerResponse): void;
  /** Releases the AdminGetUser client. */
  close(): void;
}

/**
 * The local pool's triggers: the pre token generation trigger with AdminGetUser sent to `endpoint` (the local
 * pool's public endpoint) signed with `operator`, and access requests stored with `recordAudit` when given.
 */
export function localTriggers(opts: {
  endpoint: string;
  region: string;
  operator: CollectorCredential;
  log?: (line: string) => void;
  recordAudit?: RecordAudit | undefined;
  federatedTenants?: FederatedTenants | undefined;
  /** Staff-configured providers' tenants (the table's `IDP#…` items). */
  tenantOfProvider?: ((providerName: string) => Promise<string | null>) | undefined;
}): LocalTriggers {
  const idp = new CognitoIdentityProviderClient({
    endpoint: opts.endpoint,
    region: opts.region,
    credentials: { accessKeyId: opts.operator.accessKeyId, secretAccessKey: opts.operator.secretAccessKey },
  });
  const log = opts.log ?? (() => undefined);
  const preTokenGeneration = createPreTokenGenerationHandler(
    adminGetUserMfa(idp),
    (m, e) => log(`pre token generation: ${m}: ${(e as Error).message ?? String(e)}`),
    opts.recordAudit,
    (opts.federatedTenants && Object.keys(opts.federatedTenants).length > 0) || opts.tenantOfProvider
      ? { tenants: opts.federatedTenants ?? {}, addUserToGroup: adminAddUserToGroup(idp), ...(opts.tenantOfProvider ? { tenantOfProvider: opts.tenantOfProvider } : {}) }
      : undefined,
  );
  const functions: Record<string, (event: unknown) => Promise<unknown>> = {
    [LOCAL_PRE_TOKEN_GENERATION_FUNCTION]: (e) => preTokenGeneration(e as PreTokenGenerationTriggerEvent),
  };
  return {
    serve(req, res) {
      const name = decodeURIComponent(INVOKE_PATH.exec(req.url ?? '')?.[1] ?? '');
      const fn = functions[name];
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
          res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
        if (!fn) return send(404, { Type: 'User', message: `Function not found: ${name}` }, { 'X-Amzn-ErrorType': 'ResourceNotFoundException' });
        let event: unknown;
        try {
          event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { message: 'invalid payload' }, { 'X-Amzn-ErrorType': 'InvalidRequestContentException' });
        }
        fn(event).then(
          (out) => send(200, out),
          (e: unknown) => send(200, { errorMessage: (e as Error).message ?? String(e), errorType: 'Error' }, { 'X-Amz-Function-Error': 'Unhandled' }),
        );
      });
    },
    close: () => idp.destroy(),
  };
}
