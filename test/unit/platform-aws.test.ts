/**
 * The platform scripts against the AWS API shapes they call, with `aws-sdk-client-mock` (the SDK clients'
 * `send` stubbed per command; the commands and their inputs are the SDK's own): API Gateway `GetAccount`
 * (deploy pre-flight), CloudFormation `DescribeStacks` (stage outputs, the preview reaper's choice of stacks)
 * and `SetStackPolicy`, Cognito calls (SRP sign-in of the smoke user; its invitation through the admin
 * Lambda's aws-lite adapter against a recording stand-in endpoint), and the
 * smoke test's signed ingest call and the customer's side of an incident.
 */
import { APIGatewayClient, GetAccountCommand } from '@aws-sdk/client-api-gateway';
import { CloudFormationClient, DescribeStacksCommand, SetStackPolicyCommand, type Stack } from '@aws-sdk/client-cloudformation';
import {
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCOUNT_STACK_DEPLOY_COMMAND, ACCOUNT_STACK_NAME } from '../../infra/account-stack.js';
import { stageOutputs } from '../../scripts/platform/aws.js';
import { parseOpenPullRequests } from '../../scripts/platform/cdk.js';
import { cleanupPreviews } from '../../scripts/platform/cleanup-previews.js';
import { inviteUser, operatorUsers } from '../../scripts/platform/invite-user.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import { COGNITO_ADMIN_ACTIONS, COGNITO_OPERATOR_ACTIONS, cognitoUsers } from '../../lambdas/data/cognito-users.js';
import type { AuditEntry } from '../../lambdas/contract/schemas.js';
import type { AuditPort, TenantAdminPort, TenantsPort } from '../../lambdas/domain/ports.js';
import { applyStackPolicies, checkApiGatewayAccount, getAccount, MissingApiGatewayRoleError } from '../../scripts/platform/preflight.js';
import { apiSmokeTest } from '../../scripts/platform/smoke.js';
import { UsageError } from '../../scripts/platform/cli.js';
import { AddCommentBody, ClosureRequestBody, CreateIncidentBody, ListIncidentsQuery, O365EventIngest, UpdateIncidentBody } from '../../lambdas/contract/schemas.js';

const apigw = mockClient(APIGatewayClient);
const cfn = mockClient(CloudFormationClient);
const idp = mockClient(CognitoIdentityProviderClient);
afterEach(() => {
  apigw.reset();
  cfn.reset();
  idp.reset();
});
const REGION = 'eu-west-1';
const awsError = (name: string, message = name) => Object.assign(new Error(message), { name, $metadata: {} });

describe('deploy pre-flight: API Gateway account CloudWatch role (GetAccount)', () => {
  const client = () => new APIGatewayClient({ region: REGION, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  const ROLE = 'arn:aws:iam::123456789012:role/Vigia-Account-ApiGatewayCloudWatchRole-ABC';

  it('passes with the role ARN when the account setting has one', async () => {
    apigw.on(GetAccountCommand).resolves({ cloudwatchRoleArn: ROLE, throttleSettings: { burstLimit: 5000, rateLimit: 10000 } });
    const c = client();
    await expect(checkApiGatewayAccount(REGION, (r) => getAccount(r, c))).resolves.toBe(ROLE);
    expect(apigw.commandCalls(GetAccountCommand)).toHaveLength(1);
    expect(apigw.commandCalls(GetAccountCommand)[0]!.args[0].input).toEqual({});
  });

  it('a fresh account (no cloudwatchRoleArn) stops the deploy with the account stack and its command', async () => {
    apigw.on(GetAccountCommand).resolves({ throttleSettings: { burstLimit: 5000, rateLimit: 10000 } });
    const c = client();
    const failure = checkApiGatewayAccount(REGION, (r) => getAccount(r, c));
    await expect(failure).rejects.toThrow(MissingApiGatewayRoleError);
    await expect(checkApiGatewayAccount(REGION, (r) => getAccount(r, c))).rejects.toThrow(
      new RegExp(`${REGION}.*cloudwatchRoleArn is empty.*${ACCOUNT_STACK_NAME}.*${ACCOUNT_STACK_DEPLOY_COMMAND.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });

  it('an access error propagates as the SDK raised it (not mistaken for a missing role)', async () => {
    apigw.on(GetAccountCommand).rejects(awsError('AccessDeniedException', 'not authorized to perform: apigateway:GET'));
    const c = client();
    await expect(checkApiGatewayAccount(REGION, (r) => getAccount(r, c))).rejects.toThrow(/apigateway:GET/);
  });
});

describe('production stack policy (SetStackPolicy)', () => {
  it('prod: set on the Auth and Data stacks, denying Update:Replace; previews: no call', async () => {
    const c = new CloudFormationClient({ region: REGION, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    cfn.on(SetStackPolicyCommand).resolves({});
    expect(await applyStackPolicies(c, 'prod')).toEqual(['Vigia-prod-Auth', 'Vigia-prod-Data']);
    const calls = cfn.commandCalls(SetStackPolicyCommand).map((x) => x.args[0].input);
    expect(calls.map((i) => i.StackName)).toEqual(['Vigia-prod-Auth', 'Vigia-prod-Data']);
    expect(JSON.parse(calls[0]!.StackPolicyBody!).Statement).toEqual(
      expect.arrayContaining([expect.objectContaining({ Effect: 'Deny', Action: 'Update:Replace' })]),
    );
    cfn.reset();
    expect(await applyStackPolicies(c, 'pr-42')).toEqual([]);
    expect(cfn.calls()).toHaveLength(0);
  });
});

describe('preview reaper: which stacks it destroys', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  const h = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
  const stack = (name: string, tags: Record<string, string>, extra: Partial<Stack> = {}): Stack =>
    ({ StackName: name, StackStatus: 'UPDATE_COMPLETE', CreationTime: h(500), Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })), ...extra }) as Stack;
  const vigia = (stage: string) => ({ project: 'vigia', stage, 'created-at': h(500).toISOString() });
  const client = () => new CloudFormationClient({ region: REGION, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
  /** DescribeStacks over two pages, as CloudFormation pages the account's stacks. */
  const answer = (stacks: Stack[]) => {
    const half = Math.ceil(stacks.length / 2);
    cfn.on(DescribeStacksCommand, {}).resolves({ Stacks: stacks.slice(0, half), NextToken: 'page-2' });
    cfn.on(DescribeStacksCommand, { NextToken: 'page-2' }).resolves({ Stacks: stacks.slice(half) });
  };
  const run = async (stacks: Stack[], openPullRequests = [] as Array<{ number: number; updatedAt: string }>, dryRun = false) => {
    answer(stacks);
    const destroyed: string[] = [];
    const chosen = await cleanupPreviews({ cfn: client(), now, maxAgeHours: 72, openPullRequests, dryRun, destroy: async (s) => void destroyed.push(s) });
    return { chosen, destroyed };
  };

  it('measures the age from the last deployment (LastUpdatedTime, else CreationTime), not the first', async () => {
    const { chosen, destroyed } = await run([
      // created 500 h ago (created-at tag too) but redeployed 5 h ago: young
      stack('Vigia-pr-1-Auth', vigia('pr-1'), { LastUpdatedTime: h(5) }),
      stack('Vigia-pr-1-Api', vigia('pr-1'), { LastUpdatedTime: h(300) }), // one stack untouched by the last deploy: the stage's newest counts
      // never updated, created 100 h ago: old
      stack('Vigia-pr-2-Auth', vigia('pr-2'), { CreationTime: h(100) }),
      // last deployed 80 h ago
      stack('Vigia-pr-3-Auth', vigia('pr-3'), { LastUpdatedTime: h(80) }),
      stack('Vigia-pr-3-Api', vigia('pr-3'), { LastUpdatedTime: h(80) }),
    ]);
    expect(chosen.map((s) => [s.stage, s.ageHours, s.stacks])).toEqual([
      ['pr-2', 100, ['Vigia-pr-2-Auth']],
      ['pr-3', 80, ['Vigia-pr-3-Api', 'Vigia-pr-3-Auth']],
    ]);
    expect(chosen[0]!.lastDeployedAt).toBe(h(100).toISOString());
    expect(destroyed).toEqual(['pr-2', 'pr-3']);
    // Both pages were read.
    expect(cfn.commandCalls(DescribeStacksCommand).map((c) => c.args[0].input)).toEqual([{}, { NextToken: 'page-2' }]);
  });

  it('never removes the stage of an open pull request updated within the maximum age', async () => {
    const stacks = [
      stack('Vigia-pr-7-Auth', vigia('pr-7'), { LastUpdatedTime: h(200) }), // open, updated 2 h ago (e.g. a review): kept
      stack('Vigia-pr-8-Auth', vigia('pr-8'), { LastUpdatedTime: h(200) }), // open, but untouched for 100 h: destroyed
      stack('Vigia-pr-9-Auth', vigia('pr-9'), { LastUpdatedTime: h(200) }), // not open (closed, destroy job failed): destroyed
    ];
    const open = [{ number: 7, updatedAt: h(2).toISOString() }, { number: 8, updatedAt: h(100).toISOString() }, { number: 11, updatedAt: h(1).toISOString() }];
    expect((await run(stacks, open)).destroyed).toEqual(['pr-8', 'pr-9']);
  });

  it('leaves production, other projects, non-preview names and deleted stacks alone; dry run destroys nothing', async () => {
    const { chosen, destroyed } = await run(
      [
        stack('Vigia-prod-Auth', vigia('prod'), { LastUpdatedTime: h(1000) }),
        stack('Vigia-staging-Auth', vigia('staging'), { LastUpdatedTime: h(1000) }),
        stack('Vigia-pr-4-Auth', { project: 'other', stage: 'pr-4' }),
        stack('Vigia-preview-Auth', vigia('preview')),
        stack('Vigia-pr-5-Auth', vigia('pr-5'), { StackStatus: 'DELETE_COMPLETE' }),
        stack('CDKToolkit', {}),
        stack('Vigia-pr-6-Auth', vigia('pr-6'), { StackStatus: 'DELETE_FAILED', LastUpdatedTime: h(90) }),
      ],
      [],
      true,
    );
    expect(chosen.map((s) => s.stage)).toEqual(['pr-6']);
    expect(destroyed).toEqual([]);
  });

  it('reads gh pr list --json number,updatedAt and refuses anything else', () => {
    expect(parseOpenPullRequests('[{"number":7,"updatedAt":"2026-11-20T10:00:00Z"}]')).toEqual([{ number: 7, updatedAt: '2026-11-20T10:00:00Z' }]);
    expect(parseOpenPullRequests('[]')).toEqual([]);
    for (const bad of ['{', '{"number":7}', '[{"number":"7","updatedAt":"2026-11-20T10:00:00Z"}]', '[{"number":7,"updatedAt":"yesterday"}]']) {
      expect(() => parseOpenPullRequests(bad), bad).toThrow(UsageError);
    }
  });
});

describe('stage outputs (DescribeStacks by name)', () => {
  it('asks for the Auth, Hosting and Api stacks and merges their outputs; a missing stack is a clear error', async () => {
    cfn.on(DescribeStacksCommand, { StackName: 'Vigia-pr-9-Auth' }).resolves({ Stacks: [{ StackName: 'Vigia-pr-9-Auth', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date(), Outputs: [{ OutputKey: 'UserPoolId', OutputValue: 'eu-west-1_AbC' }] }] });
    cfn.on(DescribeStacksCommand, { StackName: 'Vigia-pr-9-Hosting' }).resolves({ Stacks: [{ StackName: 'Vigia-pr-9-Hosting', StackStatus: 'CREATE_COMPLETE', CreationTime: new Date(), Outputs: [{ OutputKey: 'SiteUrl', OutputValue: 'https://d1.cloudfront.net' }] }] });
    cfn.on(DescribeStacksCommand, { StackName: 'Vigia-pr-9-Api' }).rejects(awsError('ValidationError', 'Stack with id Vigia-pr-9-Api does not exist'));
    const c = new CloudFormationClient({ region: REGION, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
    await expect(stageOutputs(c, 'pr-9', REGION)).rejects.toThrow(/Vigia-pr-9-Api not found in eu-west-1/);
    expect(cfn.commandCalls(DescribeStacksCommand).map((x) => x.args[0].input.StackName)).toEqual(['Vigia-pr-9-Auth', 'Vigia-pr-9-Hosting', 'Vigia-pr-9-Api']);
  });
});

describe('invite-user signs its Cognito calls with the operator\u2019s credentials', () => {
  it('the SDK default chain (here: the environment) when AWS_ACCESS_KEY_ID is set, else the local pool\u2019s operator key', async () => {
    const auth: string[] = [];
    const server = createServer((req, res) => {
      auth.push(String(req.headers.authorization));
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end('{"Users":[]}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    try {
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      process.env.AWS_ACCESS_KEY_ID = 'AKIDOPERATOR';
      process.env.AWS_SECRET_ACCESS_KEY = 'operator-secret';
      await (await operatorUsers({ userPoolId: 'p', region: REGION, endpoint })).listGroupMembers('acme');
      delete process.env.AWS_ACCESS_KEY_ID;
      delete process.env.AWS_SECRET_ACCESS_KEY;
      await (await operatorUsers({ userPoolId: 'p', region: REGION, endpoint })).listGroupMembers('acme');
      expect(auth[0]).toContain('Credential=AKIDOPERATOR/');
      expect(auth[1]).toContain(`Credential=${LOCAL_OPERATOR_CREDENTIAL.accessKeyId}/`);
    } finally {
      if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      else process.env.AWS_ACCESS_KEY_ID = saved.id;
      if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
      await new Promise((r) => server.close(r));
    }
  });
});

describe('Cognito administrative calls of invite-user (the admin Lambda\u2019s aws-lite adapter): the smoke user', () => {
  it('admin-creates the smoke user with a permanent password and no e-mail, idempotently, through cognitoUsers + the domain', async () => {
    // A stand-in for the Cognito endpoint: records each JSON 1.1 call and answers what Cognito would.
    const calls: Array<[string, Record<string, unknown>]> = [];
    let exists = false;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const op = String(req.headers['x-amz-target']).split('.')[1]!;
        const input = JSON.parse(body) as Record<string, unknown>;
        calls.push([op, input]);
        const user = { Username: 'smoke-bot@example.com', Enabled: true, UserStatus: 'CONFIRMED', Attributes: [{ Name: 'email', Value: 'smoke-bot@example.com' }] };
        const out: Record<string, unknown> =
          op === 'ListUsers' ? { Users: exists ? [user] : [] }
          : op === 'AdminCreateUser' ? ((exists = true), { User: { ...user, UserStatus: 'FORCE_CHANGE_PASSWORD' } })
          : op === 'AdminGetUser' ? { ...user, UserAttributes: user.Attributes }
          : {};
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(out));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const users = cognitoUsers({ userPoolId: 'eu-west-1_AbC', region: REGION, endpoint, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } });
      const entries: AuditEntry[] = [];
      const ports = {
        tenants: { getTenant: async (id: string) => (id === 'smoke' ? { id, name: 'Smoke test' } : null) } as unknown as TenantsPort,
        // the member ledger and userCount with the user.invite entry (TenantAdminPort.addMember)
        tenantAdmin: { addMember: async (_t: string, _u: string, _at: string, a: AuditEntry | null) => (a && void entries.push(a), true) } as Partial<TenantAdminPort> as TenantAdminPort,
        audit: { put: async (e: AuditEntry) => void entries.push(e) } as unknown as AuditPort,
        users,
      };
      const input = { email: 'smoke-bot@example.com', group: 'smoke', password: 'Secreta-123-Sm1' };
      expect(await inviteUser(ports, input)).toEqual({ created: true, delivery: 'none' });
      expect(await inviteUser(ports, input)).toEqual({ created: false, delivery: 'none' });
      expect(calls.find(([op]) => op === 'AdminCreateUser')![1]).toEqual({
        UserPoolId: 'eu-west-1_AbC',
        Username: 'smoke-bot@example.com',
        UserAttributes: [{ Name: 'email', Value: 'smoke-bot@example.com' }, { Name: 'email_verified', Value: 'true' }],
        DesiredDeliveryMediums: ['EMAIL'],
        MessageAction: 'SUPPRESS',
      });
      expect(calls.filter(([op]) => op === 'AdminCreateUser')).toHaveLength(1);
      expect(calls.filter(([op]) => op === 'AdminSetUserPassword').map(([, i]) => i)).toEqual([
        { UserPoolId: 'eu-west-1_AbC', Username: 'smoke-bot@example.com', Password: 'Secreta-123-Sm1', Permanent: true },
        { UserPoolId: 'eu-west-1_AbC', Username: 'smoke-bot@example.com', Password: 'Secreta-123-Sm1', Permanent: true },
      ]);
      expect(calls.filter(([op]) => op === 'AdminAddUserToGroup').map(([, i]) => i.GroupName)).toEqual(['smoke', 'smoke']);
      // Every call is one of the adapter's declared actions (the operator-only password call included).
      for (const [op] of calls) expect([...COGNITO_ADMIN_ACTIONS, ...COGNITO_OPERATOR_ACTIONS]).toContain(`cognito-idp:${op}`);
      expect(entries.map((e) => [e.action, e.actor.sub.startsWith('cli:')])).toEqual([['user.invite', true], ['user.invite', true]]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('API smoke test of a deployed stage', () => {
  const API = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod';
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
  /** SRP as Cognito answers it: a challenge with the server's public value, then the tokens. */
  const cognitoSignIn = () => {
    idp.on(InitiateAuthCommand).resolves({
      ChallengeName: 'PASSWORD_VERIFIER',
      ChallengeParameters: { SRP_B: 'a'.repeat(512), SALT: 'b1c2d3', SECRET_BLOCK: 'c2VjcmV0', USERNAME: 'sub-123', USER_ID_FOR_SRP: 'sub-123' },
    });
    idp.on(RespondToAuthChallengeCommand).resolves({ AuthenticationResult: { IdToken: 'id.token.jwt', AccessToken: 'a', RefreshToken: 'r' } });
  };
  /**
   * A fake stage API enforcing the customer's incident role: records the requests, lists `open` as the open
   * smoke incidents, refuses a provider status (403) and accepts a closure request.
   */
  const fakeApi = (overrides: { ingest?: number; patch?: number; open?: object[] } = {}) => {
    const requests: Array<{ method: string; url: string; headers: Record<string, string>; body: string }> = [];
    const fn = (async (input: string | URL, init?: RequestInit) => {
      const url = String(input);
      const method = init?.method ?? 'GET';
      const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
      const body = String(init?.body ?? '');
      requests.push({ method, url, headers, body });
      if (url.includes('/ingest/')) return new Response('{"accepted":true}', { status: overrides.ingest ?? 202 });
      if (method === 'GET') return new Response(JSON.stringify({ items: overrides.open ?? [], nextCursor: null }), { status: 200 });
      if (method === 'PATCH') return new Response('{"code":"FORBIDDEN"}', { status: overrides.patch ?? 403 });
      if (url.includes('/closure-request')) return new Response(JSON.stringify({ id: 'INC-000042', version: 2, status: 'new', closureRequested: true }), { status: 200 });
      if (url.includes('/comments')) return new Response(JSON.stringify({ id: 'c-1', author: 'smoke-bot@example.com', body: 'x', createdAt: '2026-11-20T12:00:00.000Z' }), { status: 201 });
      return new Response(JSON.stringify({ id: 'INC-000042', version: 1, status: 'new' }), { status: 201 });
    }) as typeof fetch;
    return { fn, requests };
  };
  const run = (api: ReturnType<typeof fakeApi>) =>
    apiSmokeTest({
      apiUrl: `${API}/`,
      region: REGION,
      userPoolId: 'eu-west-1_AbC',
      userPoolClientId: 'client123',
      email: 'smoke-bot@example.com',
      password: 'Secreta-123-Sm1',
      tenant: 'smoke',
      idp: new CognitoIdentityProviderClient({ region: REGION, credentials: { accessKeyId: 'a', secretAccessKey: 'b' } }),
      credentials,
      fetch: api.fn,
      now: () => new Date('2026-11-20T12:00:00.000Z'),
    });

  it('signs one ingest call with SigV4 (execute-api), then, as the smoke user (a customer): opens an incident, is refused a provider status, requests closure', async () => {
    cognitoSignIn();
    const api = fakeApi();
    const r = await run(api);
    expect(r).toEqual({ ingestStatus: 202, incidentId: 'INC-000042', reused: false, finalStatus: 'new', problems: [] });
    const [ingest, list, create, patch, closure, ...rest] = api.requests;
    expect(rest).toEqual([]);
    expect(ingest!.url).toBe(`${API}/ingest/office365/events`);
    expect(ingest!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261120\/eu-west-1\/execute-api\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect(ingest!.headers['x-amz-security-token']).toBe('session-token');
    // The bodies and queries satisfy the routes' own request schemas.
    expect(O365EventIngest.parse(JSON.parse(ingest!.body))).toEqual({
      eventId: expect.stringMatching(/^smoke-\d+-[0-9a-f]{8}$/), tenantId: 'smoke', workload: 'Vigia', operation: 'PostDeploySmokeTest',
      user: 'smoke-bot@example.com', result: 'Succeeded', clientIp: null, at: '2026-11-20T12:00:00Z',
    });
    expect([list!.method, list!.body]).toEqual(['GET', '']);
    expect(ListIncidentsQuery.parse(Object.fromEntries(new URL(list!.url).searchParams))).toMatchObject({ tenant: 'smoke', status: ['new'], q: 'Smoke test (post-deploy)', limit: 1 });
    expect(CreateIncidentBody.parse(JSON.parse(create!.body))).toMatchObject({ severity: 'low', title: 'Smoke test (post-deploy)' });
    expect([create!.method, create!.url, create!.headers.authorization]).toEqual(['POST', `${API}/incidents?tenant=smoke`, 'id.token.jwt']);
    expect(create!.headers['idempotency-key']).toMatch(/^smoke-\d+$/);
    expect(UpdateIncidentBody.parse(JSON.parse(patch!.body))).toEqual({ version: 1, status: 'in_progress' });
    expect([patch!.method, patch!.url]).toEqual(['PATCH', `${API}/incidents/INC-000042?tenant=smoke`]);
    expect([closure!.method, closure!.url]).toEqual(['POST', `${API}/incidents/INC-000042/closure-request?tenant=smoke`]);
    expect(ClosureRequestBody.safeParse(JSON.parse(closure!.body)).success).toBe(true);
    // SRP: USER_SRP_AUTH on the portal's app client, then the password verifier.
    expect(idp.commandCalls(InitiateAuthCommand)[0]!.args[0].input).toMatchObject({ AuthFlow: 'USER_SRP_AUTH', ClientId: 'client123', AuthParameters: { USERNAME: 'smoke-bot@example.com' } });
    expect(idp.commandCalls(RespondToAuthChallengeCommand)[0]!.args[0].input).toMatchObject({ ChallengeName: 'PASSWORD_VERIFIER', ClientId: 'client123' });
  });

  it('reuses the open smoke incident of an earlier run instead of opening another (a comment once closure was requested)', async () => {
    cognitoSignIn();
    const api = fakeApi({ open: [{ id: 'INC-000007', version: 3, status: 'new', closureRequested: true }] });
    const r = await run(api);
    expect(r).toMatchObject({ incidentId: 'INC-000007', reused: true, problems: [] });
    expect(api.requests.map((q) => `${q.method} ${new URL(q.url).pathname.replace('/prod', '')}`)).toEqual([
      'POST /ingest/office365/events', 'GET /incidents', 'PATCH /incidents/INC-000007', 'POST /incidents/INC-000007/comments',
    ]);
    expect(AddCommentBody.safeParse(JSON.parse(api.requests[3]!.body)).success).toBe(true);
    expect(JSON.parse(api.requests[2]!.body)).toEqual({ version: 3, status: 'in_progress' });
  });

  it('reports a refused ingest call and a customer allowed to set a provider status as problems', async () => {
    cognitoSignIn();
    const r = await run(fakeApi({ ingest: 403, patch: 200 }));
    expect(r.problems).toEqual([
      expect.stringMatching(/^signed ingest call answered 403/),
      expect.stringMatching(/^PATCH \/incidents\/INC-000042 to in_progress as a customer \(403 expected\) answered 200/),
    ]);
  });
});
