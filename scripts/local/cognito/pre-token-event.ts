/**
 * The pre token generation event of the local user pool, built as Cognito builds it. cognito-local 5.3.0 sends an
 * incomplete one (version "0", region "local", `groupConfiguration: {}` — no groups, so every sign-in of a user
 * WITH groups looked like an access request —, `TokenGeneration_Authentication` for every sign-in, no client
 * metadata after SRP); the trigger server (./triggers.ts) replaces it with {@link preTokenGenerationEvent}.
 *
 * AWS: developer guide, "Pre token generation Lambda trigger"
 * (https://docs.aws.amazon.com/cognito/latest/developerguide/user-pool-lambda-pre-token-generation.html):
 * trigger sources, the request and response parameters of event versions 1 and 2; "Lambda trigger common
 * parameters" (`version`, `triggerSource`, `region`, `userPoolId`, `userName`, `callerContext`).
 */
import type { PreTokenGenerationTriggerEvent, PreTokenGenerationV2TriggerEvent } from 'aws-lambda';

/**
 * `triggerSource` of a token issue (developer guide, "Pre token generation Lambda trigger" → trigger sources):
 * sign-in (password/SRP and its MFA challenges), the hosted sign-in (federation, managed login), the new-password
 * challenge, device authentication, refresh.
 */
export type TokenGenerationSource =
  | 'TokenGeneration_Authentication'
  | 'TokenGeneration_HostedAuth'
  | 'TokenGeneration_NewPasswordChallenge'
  | 'TokenGeneration_AuthenticateDevice'
  | 'TokenGeneration_RefreshTokens';

/** The trigger event version of a pool's `PreTokenGenerationConfig.LambdaVersion` (V1_0 → "1", V2_0 → "2"). */
export type PreTokenEventVersion = '1' | '2';

/** A group of the user, as the pool stores it. */
export interface EventGroup {
  GroupName: string;
  Precedence?: number | undefined;
  RoleArn?: string | undefined;
}

/** Everything Cognito puts in the event, gathered by the caller. */
export interface PreTokenEventInput {
  version: PreTokenEventVersion;
  triggerSource: TokenGenerationSource;
  region: string;
  userPoolId: string;
  userName: string;
  clientId: string;
  /** The user's attributes, each a string (Cognito adds `cognito:user_status`). */
  userAttributes: Record<string, string>;
  groups: readonly EventGroup[];
  /**
   * Client metadata: only that of RespondToAuthChallenge / AdminRespondToAuthChallenge reaches the trigger (the
   * developer guide: InitiateAuth's is not passed); omitted from the event when absent or empty.
   */
  clientMetadata?: Record<string, string> | undefined;
  /** Version 2: the access token's scopes (`aws.cognito.signin.user.admin` for an API sign-in; OAuth scopes when hosted). */
  scopes?: readonly string[] | undefined;
}

/** Function name of the pre token generation trigger in cognito-local's `TriggerFunctions` (served by ./triggers.ts). */
export const LOCAL_PRE_TOKEN_GENERATION_FUNCTION = 'vigia-local-pre-token-generation';

/** `callerContext.awsSdkVersion` of a token issue, as Cognito sends it for sign-ins (its own value, not the client's SDK). */
export const COGNITO_AWS_SDK_VERSION = 'aws-sdk-unknown-unknown';

/**
 * The user's groups in Cognito's order (ascending `Precedence`, groups without one last, then by name), their IAM
 * roles in the same order, and the preferred role: the role of the first group that has one, or null (developer
 * guide, "Adding groups to a user pool": the role of the group with the lowest precedence value is preferred).
 */
export function groupConfiguration(groups: readonly EventGroup[]): { groupsToOverride: string[]; iamRolesToOverride: string[]; preferredRole: string | null } {
  const ordered = [...groups].sort(
    (a, b) => (a.Precedence ?? Number.POSITIVE_INFINITY) - (b.Precedence ?? Number.POSITIVE_INFINITY) || a.GroupName.localeCompare(b.GroupName),
  );
  const roles = ordered.map((g) => g.RoleArn).filter((r): r is string => typeof r === 'string' && r.length > 0);
  return { groupsToOverride: ordered.map((g) => g.GroupName), iamRolesToOverride: roles, preferredRole: roles[0] ?? null };
}

/**
 * The event Cognito sends to a pre token generation trigger of version `input.version` (developer guide, "Pre token
 * generation Lambda trigger", request and response parameters):
 * `{ version, triggerSource, region, userPoolId, userName, callerContext: { awsSdkVersion, clientId },
 *    request: { userAttributes, groupConfiguration: { groupsToOverride, iamRolesToOverride, preferredRole },
 *               clientMetadata?, scopes (version 2) },
 *    response: { claimsOverrideDetails: null } (version 1) | { claimsAndScopeOverrideDetails: null } (version 2) }`.
 */
export function preTokenGenerationEvent(input: PreTokenEventInput): PreTokenGenerationTriggerEvent | PreTokenGenerationV2TriggerEvent {
  const metadata = input.clientMetadata && Object.keys(input.clientMetadata).length > 0 ? { clientMetadata: { ...input.clientMetadata } } : {};
  const common = {
    version: input.version,
    triggerSource: input.triggerSource,
    region: input.region,
    userPoolId: input.userPoolId,
    userName: input.userName,
    callerContext: { awsSdkVersion: COGNITO_AWS_SDK_VERSION, clientId: input.clientId },
  };
  const request = { userAttributes: { ...input.userAttributes }, groupConfiguration: groupConfiguration(input.groups), ...metadata };
  if (input.version === '2') {
    return {
      ...common,
      request: { ...request, scopes: [...(input.scopes ?? ['aws.cognito.signin.user.admin'])] },
      response: { claimsAndScopeOverrideDetails: null },
    } as unknown as PreTokenGenerationV2TriggerEvent;
  }
  // aws-lambda's types say `claimsOverrideDetails` is an object; Cognito sends null (see the developer guide's
  // example event), and the trigger code must cope with it.
  return { ...common, request, response: { claimsOverrideDetails: null } } as unknown as PreTokenGenerationTriggerEvent;
}

/** How a sign-in the proxy is about to complete in cognito-local should be reported to the trigger. */
export interface ExpectedTokenIssue {
  triggerSource: TokenGenerationSource;
  clientMetadata?: Record<string, string> | undefined;
}

/**
 * What cognito-local cannot tell the trigger: the flow of a sign-in and its client metadata. The proxy and the hosted
 * endpoints complete every sign-in with cognito-local's USER_PASSWORD_AUTH (reported as
 * `TokenGeneration_Authentication`, without metadata); before such a call they {@link expect} how Cognito would
 * report it, and the trigger server {@link take}s it for the next sign-in event of that user. An expectation lives
 * for the call only (`run` removes it), so it never leaks to a later sign-in.
 */
export class TokenIssueFlows {
  private readonly pending = new Map<string, ExpectedTokenIssue[]>();

  /** Runs `call` (a cognito-local sign-in of `username`) with `issue` expected for its token issue. */
  async run<T>(username: string, issue: ExpectedTokenIssue, call: () => Promise<T>): Promise<T> {
    const queue = this.pending.get(username) ?? [];
    queue.push(issue);
    this.pending.set(username, queue);
    try {
      return await call();
    } finally {
      const left = (this.pending.get(username) ?? []).filter((i) => i !== issue);
      if (left.length > 0) this.pending.set(username, left);
      else this.pending.delete(username);
    }
  }

  /** The expected issue of `username`'s sign-in under way, if any (consumed). */
  take(username: string): ExpectedTokenIssue | undefined {
    const queue = this.pending.get(username);
    const issue = queue?.shift();
    if (queue && queue.length === 0) this.pending.delete(username);
    return issue;
  }
}
