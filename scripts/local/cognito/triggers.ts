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
import { adminAddUserToGroup, adminGetUserMfa, createPreTokenGenerationHandler, PRE_TOKEN_GENERATION_EVENT_VERSION, type RecordAudit } from '../../../lambdas/triggers/pre-token-generation.js';
import type { FederatedTenants } from '../../../lambdas/triggers/federation.js';
import type { CollectorCredential } from '../config.js';
import { LOCAL_PRE_TOKEN_GENERATION_FUNCTION, preTokenGenerationEvent, type EventGroup, type PreTokenEventVersion, type TokenGenerationSource, type TokenIssueFlows } from './pre-token-event.js';
import { findUser, readPool } from './store.js';


export { LOCAL_PRE_TOKEN_GENERATION_FUNCTION } from './pre-token-event.js';

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
  /** cognito-local's working directory: the user's groups and status are read from its pool file. */
  dataDir: string;
  /** Sign-in flows the proxy and the hosted endpoints announce (./pre-token-event.ts). */
  flows?: TokenIssueFlows | undefined;
  /** The event version of the deployed trigger (PRE_TOKEN_GENERATION_EVENT_VERSION). */
  version?: PreTokenEventVersion | undefined;
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
  /**
   * Cognito's event for cognito-local's (./pre-token-event.ts): the user's groups, roles and status from the pool,
   * the flow and client metadata the proxy announced, the stack's event version and region.
   */
  async function cognitoEvent(raw: unknown): Promise<PreTokenGenerationTriggerEvent> {
    const local = (raw ?? {}) as {
      triggerSource?: string;
      userPoolId?: string;
      userName?: string;
      callerContext?: { clientId?: string };
      request?: { userAttributes?: Record<string, string>; clientMetadata?: Record<string, string> };
    };
    const userPoolId = local.userPoolId ?? '';
    const userName = local.userName ?? '';
    const pool = await readPool(opts.dataDir, userPoolId);
    const user = pool ? findUser(pool, userName) : null;
    const groups = Object.values((pool?.Groups ?? {}) as Record<string, EventGroup & { members?: string[] }>).filter((g) => g.members?.includes(userName));
    let triggerSource = (local.triggerSource ?? 'TokenGeneration_Authentication') as TokenGenerationSource;
    let clientMetadata = local.request?.clientMetadata;
    if (triggerSource === 'TokenGeneration_Authentication') {
      const expected = opts.flows?.take(userName);
      if (expected) {
        triggerSource = expected.triggerSource;
        clientMetadata = expected.clientMetadata ?? clientMetadata;
      }
    }
    return preTokenGenerationEvent({
      version: opts.version ?? PRE_TOKEN_GENERATION_EVENT_VERSION,
      triggerSource,
      region: opts.region,
      userPoolId,
      userName,
      clientId: local.callerContext?.clientId ?? '',
      userAttributes: { ...(local.request?.userAttributes ?? {}), ...(user?.UserStatus ? { 'cognito:user_status': user.UserStatus } : {}) },
      groups,
      clientMetadata,
    }) as PreTokenGenerationTriggerEvent;
  }
  const functions: Record<string, (event: unknown) => Promise<unknown>> = {
    [LOCAL_PRE_TOKEN_GENERATION_FUNCTION]: async (e) => {
      const event = await cognitoEvent(e);
      return withPoolEmailVerified(await preTokenGeneration(event), event.request.userAttributes);
    },
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

/**
 * `out` (the trigger's answer) with the ID token's `email_verified` claim set to what the pool stores, through
 * the answer's `claimsToAddOrOverride` (the only way into cognito-local's token). cognito-local 5.3.0 writes
 * `email_verified: Boolean(<attribute>)`, and the attribute of an unverified address is the string "false", so
 * every token said `true`; Cognito's ID token carries the attribute as a boolean (developer guide, "Understanding
 * the identity (ID) token": `"email_verified": true` in the payload example) — `false` for an address not
 * verified, which is what the portal's sign-in relies on (docs/portal.md#sign-in-to-dashboard). A value the
 * project's trigger set itself is kept.
 */
export function withPoolEmailVerified(out: PreTokenGenerationTriggerEvent, attributes: Record<string, string> | undefined): PreTokenGenerationTriggerEvent {
  const stored = attributes?.email_verified;
  if (stored === undefined) return out;
  const details = out.response?.claimsOverrideDetails ?? {};
  const claims = details.claimsToAddOrOverride ?? {};
  if ('email_verified' in claims) return out;
  return {
    ...out,
    response: {
      ...out.response,
      // A boolean, as Cognito writes it (the type says string: claims a trigger adds are strings).
      claimsOverrideDetails: { ...details, claimsToAddOrOverride: { ...claims, email_verified: (stored === 'true') as unknown as string } },
    },
  };
}
