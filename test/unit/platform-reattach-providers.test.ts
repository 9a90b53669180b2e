/**
 * `platform:deploy`'s last step (scripts/platform/identity-providers.ts): staff-configured providers that a
 * deploy dropped from the app client are put back, with every other client setting sent unchanged.
 * Against the Cognito SDK's own command shapes (aws-sdk-client-mock).
 */
import {
  CognitoIdentityProviderClient,
  DescribeUserPoolClientCommand,
  ListIdentityProvidersCommand,
  UpdateUserPoolClientCommand,
  type UserPoolClientType,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { reattachStaffProviders } from '../../scripts/platform/identity-providers.js';

const cognito = mockClient(CognitoIdentityProviderClient);
const POOL = 'eu-west-1_pool';
const CLIENT = 'client123';
const described: UserPoolClientType & Record<string, unknown> = {
  UserPoolId: POOL,
  ClientId: CLIENT,
  ClientName: 'vigia-prod-portal',
  RefreshTokenValidity: 30,
  AllowedOAuthFlows: ['code'],
  AllowedOAuthScopes: ['openid', 'email'],
  AllowedOAuthFlowsUserPoolClient: true,
  CallbackURLs: ['https://portal.example/'],
  LogoutURLs: ['https://portal.example/'],
  ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
  SupportedIdentityProviders: ['COGNITO', 'Google'],
  CreationDate: new Date('2026-01-01T00:00:00Z'),
} as UserPoolClientType & Record<string, unknown>;

beforeEach(() => cognito.reset());

describe('reattachStaffProviders', () => {
  it('adds the bound tenant-* providers the client lacks, across pages, keeping every other setting', async () => {
    cognito
      .on(ListIdentityProvidersCommand, { NextToken: undefined })
      .resolves({ Providers: [{ ProviderName: 'Google' }, { ProviderName: 'tenant-acme' }], NextToken: 'p2' })
      .on(ListIdentityProvidersCommand, { NextToken: 'p2' })
      .resolves({ Providers: [{ ProviderName: 'tenant-globex' }, { ProviderName: 'tenant-gone' }] })
      .on(DescribeUserPoolClientCommand)
      .resolves({ UserPoolClient: { ...described, SupportedIdentityProviders: ['COGNITO', 'Google', 'tenant-acme'] } })
      .on(UpdateUserPoolClientCommand)
      .resolves({});
    const added = await reattachStaffProviders(cognito as unknown as CognitoIdentityProviderClient, {
      userPoolId: POOL,
      clientId: CLIENT,
      isBound: async (name) => name !== 'tenant-gone',
    });
    expect(added).toEqual(['tenant-globex']);
    const updates = cognito.commandCalls(UpdateUserPoolClientCommand);
    expect(updates).toHaveLength(1);
    const input = updates[0]!.args[0].input;
    expect(input.SupportedIdentityProviders).toEqual(['COGNITO', 'Google', 'tenant-acme', 'tenant-globex']);
    // Every updatable setting goes back as described (UpdateUserPoolClient resets omitted ones) …
    for (const k of ['ClientName', 'RefreshTokenValidity', 'AllowedOAuthFlows', 'AllowedOAuthScopes', 'AllowedOAuthFlowsUserPoolClient', 'CallbackURLs', 'LogoutURLs', 'ExplicitAuthFlows'] as const) {
      expect((input as unknown as Record<string, unknown>)[k], k).toEqual(described[k]);
    }
    // … and nothing the API does not take (CreationDate is read-only).
    expect(input).not.toHaveProperty('CreationDate');
    expect(input.UserPoolId).toBe(POOL);
    expect(input.ClientId).toBe(CLIENT);
  });

  it('makes no update when every staff provider is listed, or there are none', async () => {
    cognito
      .on(ListIdentityProvidersCommand)
      .resolves({ Providers: [{ ProviderName: 'tenant-acme' }] })
      .on(DescribeUserPoolClientCommand)
      .resolves({ UserPoolClient: { ...described, SupportedIdentityProviders: ['COGNITO', 'tenant-acme'] } });
    expect(await reattachStaffProviders(cognito as unknown as CognitoIdentityProviderClient, { userPoolId: POOL, clientId: CLIENT, isBound: async () => true })).toEqual([]);
    cognito.on(ListIdentityProvidersCommand).resolves({ Providers: [{ ProviderName: 'Google' }] });
    expect(await reattachStaffProviders(cognito as unknown as CognitoIdentityProviderClient, { userPoolId: POOL, clientId: CLIENT, isBound: async () => true })).toEqual([]);
    expect(cognito.commandCalls(UpdateUserPoolClientCommand)).toHaveLength(0);
  });
});
