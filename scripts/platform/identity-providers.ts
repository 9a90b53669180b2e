/**
 * After a deploy: put the enterprise identity providers that staff configured at run time back on the portal's
 * app client.
 *
 * CloudFormation owns the app client. When a deploy updates it (the providers file, the site URL…), it sends
 * the template's `SupportedIdentityProviders`, which does not know the providers staff added from the tenant
 * administration screen (docs/api.md#tenant-identity-provider): their users could not sign in until staff
 * saved the provider again. `platform:deploy` runs this step right after `cdk deploy`, so a deploy never
 * leaves a configured tenant without its company sign-in.
 *
 * A provider is put back only when it is staff-configured on BOTH sides: Cognito has it (ListIdentityProviders,
 * name `tenant-…` as `providerNameOf` makes them) and the table holds its tenant binding (the `IDP#<name>`
 * item, the commit point of the admin route; `tenantOfProvider`). A provider whose removal stopped midway
 * (item gone) is therefore not revived.
 *
 * The app client update reads the client first and sends every updatable setting back
 * (`clientUpdateOf`): UpdateUserPoolClient resets every setting the request leaves out (Amazon Cognito API
 * Reference, UpdateUserPoolClient).
 */
import {
  DescribeUserPoolClientCommand,
  ListIdentityProvidersCommand,
  UpdateUserPoolClientCommand,
  type CognitoIdentityProviderClient,
  type UpdateUserPoolClientCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import { clientUpdateOf } from '../../lambdas/data/cognito-identity-providers.js';

/** The IAM actions {@link reattachStaffProviders} calls on the stage's user pool (the deploy role has them: infra/github-oidc-stack.ts). */
export const REATTACH_PROVIDERS_ACTIONS = ['cognito-idp:ListIdentityProviders', 'cognito-idp:DescribeUserPoolClient', 'cognito-idp:UpdateUserPoolClient'] as const;
/** The IAM actions of its `isBound` check in platform:deploy (`tenantOfProvider`: the `IDP#<name>` item of the stage table). */
export const REATTACH_PROVIDERS_TABLE_ACTIONS = ['dynamodb:GetItem'] as const;

/** The prefix of every staff-configured provider name (`providerNameOf` in lambdas/domain/identity-providers.ts). */
export const STAFF_PROVIDER_PREFIX = 'tenant-';

export interface ReattachOptions {
  userPoolId: string;
  /** The portal's app client (stack output `UserPoolClientId`). */
  clientId: string;
  /** True when the table binds `providerName` to a tenant (e.g. `tenantOfProvider(name, table) !== null`). */
  isBound(providerName: string): Promise<boolean>;
}

/**
 * Adds the staff-configured providers missing from the app client's `SupportedIdentityProviders`.
 * @returns the provider names added (empty: nothing to do, no UpdateUserPoolClient call)
 * @throws the Cognito SDK's errors (e.g. `ResourceNotFoundException` for a wrong pool or client id)
 */
export async function reattachStaffProviders(cognito: Pick<CognitoIdentityProviderClient, 'send'>, opts: ReattachOptions): Promise<string[]> {
  const names: string[] = [];
  let NextToken: string | undefined;
  do {
    const res = await cognito.send(new ListIdentityProvidersCommand({ UserPoolId: opts.userPoolId, MaxResults: 60, ...(NextToken ? { NextToken } : {}) }));
    for (const p of res.Providers ?? []) if (p.ProviderName?.startsWith(STAFF_PROVIDER_PREFIX)) names.push(p.ProviderName);
    NextToken = res.NextToken;
  } while (NextToken);
  if (names.length === 0) return [];

  const described = (await cognito.send(new DescribeUserPoolClientCommand({ UserPoolId: opts.userPoolId, ClientId: opts.clientId }))).UserPoolClient ?? {};
  const current = described.SupportedIdentityProviders ?? [];
  const missing: string[] = [];
  for (const name of names) if (!current.includes(name) && (await opts.isBound(name))) missing.push(name);
  if (missing.length === 0) return [];

  const update = clientUpdateOf({ ...described, UserPoolId: opts.userPoolId, ClientId: opts.clientId } as Record<string, unknown>, [...current, ...missing]);
  await cognito.send(new UpdateUserPoolClientCommand(update as unknown as UpdateUserPoolClientCommandInput));
  return missing;
}
