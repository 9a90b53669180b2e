/** Api stack: route table ↔ methods, Cognito authorizer everywhere, Lambda settings, IAM, CORS, errors, stage. */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { HANDLER_NAMES, ROUTES } from '../../lambdas/contract/routes.js';
import { FUNCTION_LIMITS, GATEWAY_RESPONSES } from '../../lambdas/contract/platform-limits.js';
import { HANDLER_TABLE_ACCESS, TABLE_WRITE_ACTIONS } from '../../infra/api-stack.js';
import { indexesOf } from '../../lambdas/data/access-patterns.js';
import { BACKGROUND_FUNCTIONS } from '../../infra/monitoring-stack.js';
import { CORS_ALLOW_HEADERS } from '../../lambdas/config.js';
import { COGNITO_ADMIN_ACTIONS } from '../../lambdas/data/cognito-users.js';
import { ofType, resources, synth, synthDev, synthPr42, synthProd } from '../support/synth.js';

/** `METHOD /path` of every API Gateway method, rebuilt from Resource PathPart/ParentId chains. */
function methodsOf(t: Template): Array<{ key: string; props: Record<string, unknown> }> {
  const res = resources(t);
  const pathOf = (ref: unknown): string => {
    const id = (ref as { Ref?: string }).Ref;
    if (!id) return ''; // the root resource (Fn::GetAtt RootResourceId)
    const r = res[id]!;
    return `${pathOf(r.Properties!.ParentId)}/${String(r.Properties!.PathPart)}`;
  };
  return ofType(t, 'AWS::ApiGateway::Method').map(([, m]) => ({
    key: `${String(m.Properties!.HttpMethod)} ${pathOf(m.Properties!.ResourceId) || '/'}`,
    props: m.Properties!,
  }));
}

describe('Api stack', () => {
  it('has exactly one method per ROUTES row, each on its handler function', () => {
    const { t } = synthPr42();
    const methods = methodsOf(t.api).filter((m) => !m.key.startsWith('OPTIONS '));
    expect(methods.map((m) => m.key).sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const fnByLogicalId = Object.fromEntries(
      ofType(t.api, 'AWS::Lambda::Function').map(([id, f]) => [id, String(f.Properties!.FunctionName)]),
    );
    for (const route of ROUTES) {
      const m = methods.find((x) => x.key === `${route.method} ${route.path}`)!;
      const uri = JSON.stringify((m.props.Integration as { Uri: unknown }).Uri);
      const target = Object.keys(fnByLogicalId).find((id) => uri.includes(`"${id}"`));
      expect(target && fnByLogicalId[target], route.operationId).toBe(`vigia-pr-42-${route.handler}`);
      expect(m.props.OperationName).toBe(route.operationId);
      expect((m.props.Integration as { Type: string }).Type).toBe('AWS_PROXY');
    }
  });

  it('puts a COGNITO_USER_POOLS authorizer (ID token in Authorization) on every method except OPTIONS', () => {
    const { t } = synthPr42();
    const authorizers = ofType(t.api, 'AWS::ApiGateway::Authorizer');
    expect(authorizers).toHaveLength(1);
    const [authorizerId, authorizer] = authorizers[0]!;
    expect(authorizer.Properties).toMatchObject({
      Type: 'COGNITO_USER_POOLS',
      IdentitySource: 'method.request.header.Authorization',
    });
    const methods = methodsOf(t.api);
    expect(methods.length).toBeGreaterThan(ROUTES.length);
    for (const m of methods) {
      if (m.key.startsWith('OPTIONS ')) {
        expect(m.props.AuthorizationType, m.key).toBe('NONE');
      } else if (ROUTES.some((r) => `${r.method} ${r.path}` === m.key && 'auth' in r && r.auth === 'iam')) {
        // collector ingest routes: SigV4 (IAM), no user-pool authorizer
        expect(m.props.AuthorizationType, m.key).toBe('AWS_IAM');
        expect(m.props.AuthorizerId, m.key).toBeUndefined();
      } else {
        expect(m.props.AuthorizationType, m.key).toBe('COGNITO_USER_POOLS');
        expect(m.props.AuthorizerId, m.key).toEqual({ Ref: authorizerId });
      }
    }
  });

  it('one Node.js 24 arm64 function per handler with the documented environment', () => {
    const { t } = synthPr42();
    // The notification consumer and the SLA job are not API handlers (test/infra/notifications.test.ts, sla-watch.test.ts).
    const background = BACKGROUND_FUNCTIONS.map((b) => `vigia-pr-42-${b}`);
    // Nor is CDK's auto-delete provider of the preview's attachments bucket.
    const fns = ofType(t.api, 'AWS::Lambda::Function').filter(([id, f]) => !background.includes(String(f.Properties!.FunctionName)) && !id.startsWith('CustomS3AutoDeleteObjects'));
    expect(fns.map(([, f]) => f.Properties!.FunctionName).sort()).toEqual(HANDLER_NAMES.map((h) => `vigia-pr-42-${h}`).sort());
    for (const [, f] of fns) {
      const p = f.Properties!;
      expect(p.Runtime).toBe('nodejs24.x');
      expect(p.Architectures).toEqual(['arm64']);
      expect(p.Handler).toBe('index.handler');
      const env = (p.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(env).sort()).toEqual(
        [
          'ALLOWED_HEADERS', 'ALLOWED_ORIGINS', 'AUDIT_RETENTION_DAYS', 'AVAILABILITY_RETENTION_DAYS', 'NODE_OPTIONS', 'O365_EVENT_RETENTION_DAYS', 'POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_SERVICE_NAME', 'STAGE', 'TABLE_NAME', 'USER_POOL_CLIENT_IDS',
          // the admin function administers the user pool; the incidents function lists group members (assignees)
          ...(/-(admin|incidents)$/.test(String(p.FunctionName)) ? ['USER_POOL_ID'] : []),
          // the notifications function links its test messages to the portal
          ...(/-notifications$/.test(String(p.FunctionName)) ? ['SITE_URL'] : []),
          // the incidents function presigns attachment transfers on the stage's bucket (docs/api.md#attachments)
          ...(/-incidents$/.test(String(p.FunctionName)) ? ['ATTACHMENTS_BUCKET'] : []),
        ].sort(),
      );
      expect(env).toMatchObject({ STAGE: 'pr-42', NODE_OPTIONS: '--enable-source-maps', POWERTOOLS_SERVICE_NAME: 'vigia-api', ALLOWED_HEADERS: CORS_ALLOW_HEADERS.join(',') });
      expect(JSON.stringify(env.TABLE_NAME)).toContain('Vigia-pr-42-Data');
      expect(JSON.stringify(env.ALLOWED_ORIGINS)).toContain('Vigia-pr-42-Hosting');
    }
    // Log groups with retention, one per function (and the notification consumer and SLA job) plus the access logs, all with generated names.
    // The preview's attachments bucket adds CDK's auto-delete provider and its named log group (as the Hosting stack's).
    const all = ofType(t.api, 'AWS::Logs::LogGroup');
    const autoDelete = all.filter(([id]) => id.startsWith('AutoDeleteObjectsLogs'));
    expect(autoDelete).toHaveLength(1);
    expect(autoDelete[0]![1].Properties!.RetentionInDays).toBe(7);
    const logs = all.filter((l) => !autoDelete.includes(l));
    expect(logs).toHaveLength(HANDLER_NAMES.length + BACKGROUND_FUNCTIONS.length + 1);
    for (const [, l] of logs) {
      expect(l.Properties!.RetentionInDays).toBe(7);
      expect(l.Properties!.LogGroupName).toBeUndefined();
    }
    for (const [, f] of fns) expect(f.Properties!.TracingConfig).toEqual({ Mode: 'Active' });
  });

  it('each API function has the Timeout and MemorySize declared in FUNCTION_LIMITS (the local gateway applies the same)', () => {
    const { t } = synthPr42();
    const fns = Object.fromEntries(ofType(t.api, 'AWS::Lambda::Function').map(([, f]) => [String(f.Properties!.FunctionName), f.Properties!]));
    for (const name of HANDLER_NAMES) {
      const p = fns[`vigia-pr-42-${name}`]!;
      expect({ Timeout: p.Timeout, MemorySize: p.MemorySize }, name).toEqual({
        Timeout: FUNCTION_LIMITS[name].timeoutSeconds,
        MemorySize: FUNCTION_LIMITS[name].memoryMB,
      });
    }
  });

  it('deploys exactly the gateway responses of GATEWAY_RESPONSES (the local gateway answers from the same rows)', () => {
    const { t } = synthPr42();
    const gw = ofType(t.api, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => ({
      type: r.Properties!.ResponseType,
      status: r.Properties!.StatusCode,
      template: (r.Properties!.ResponseTemplates as Record<string, string>)['application/json'],
    }));
    expect(gw.map((g) => g.type).sort()).toEqual(GATEWAY_RESPONSES.map((r) => r.type).sort());
    for (const r of GATEWAY_RESPONSES) {
      const g = gw.find((x) => x.type === r.type)!;
      expect(g.status, r.type).toBe(r.statusCode === undefined ? undefined : String(r.statusCode));
      expect(g.template, r.type).toContain(`"code":"${r.code}"`);
    }
  });

  it('bundles each handler locally with esbuild into a minified ESM file with a source map', () => {
    const { assembly, stacks } = synth('pr-42', { bundle: true, nag: false });
    const dirs = readdirSync(assembly.directory).filter((d) => d.startsWith('asset.'));
    const bundles = dirs.filter((d) => existsSync(path.join(assembly.directory, d, 'index.mjs')));
    expect(bundles).toHaveLength(HANDLER_NAMES.length + 1 /* the Auth stack's pre token generation trigger */ + BACKGROUND_FUNCTIONS.length /* notification consumer, SLA job */);
    for (const d of bundles) expect(existsSync(path.join(assembly.directory, d, 'index.mjs.map'))).toBe(true);
    expect(stacks.api.functions.incidents.runtime.name).toBe('nodejs24.x');
  });

  it('grants explicit least-privilege table statements (no wildcards, writes only per HANDLER_TABLE_ACCESS)', () => {
    const { t } = synthPr42();
    // The notification consumer's, SLA job's and monthly report job's roles: test/infra/notifications.test.ts,
    // sla-watch.test.ts, monthly-report-mail.test.ts.
    const policies = ofType(t.api, 'AWS::IAM::Policy').filter(([id]) => !id.startsWith('NotificationDelivery') && !id.startsWith('SlaWatch') && !id.startsWith('MonthlyReportMail'));
    expect(policies).toHaveLength(HANDLER_NAMES.length);
    for (const [id, p] of policies) {
      // Active tracing's X-Ray statement is the one resource "*" (X-Ray has no resource-level permissions).
      const statements = (p.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> }).Statement;
      const xray = statements.filter((st) => JSON.stringify(st.Action).includes('xray:'));
      expect(xray.map((st) => [[st.Action].flat().sort(), st.Resource]), id).toEqual([[['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], '*']]);
      // The incidents role's attachment objects: exactly PutObject/GetObject under `<attachments bucket>/tenants/*`.
      const attachments = statements.filter((st) => JSON.stringify(st.Action).includes('s3:'));
      if (attachments.length) {
        expect(id).toMatch(/^IncidentsRole/);
        expect(attachments.map((st) => [[st.Action].flat().sort(), st.Resource]), id).toEqual([
          [['s3:GetObject', 's3:PutObject'], { 'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^AttachmentsBucket/), 'Arn'] }, '/tenants/*']] }],
        ]);
      }
      const doc = JSON.stringify({ Statement: statements.filter((st) => !xray.includes(st) && !attachments.includes(st)) });
      expect(doc, id).not.toContain('*');
      const actions = (p.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[] }> }).Statement.flatMap((s) =>
        Array.isArray(s.Action) ? s.Action : [s.Action],
      );
      const writes = actions.filter((a) => (TABLE_WRITE_ACTIONS as readonly string[]).includes(a));
      const name = HANDLER_NAMES.find((h) => id.toLowerCase().startsWith(`${h}role`))!;
      expect(name, id).toBeDefined();
      const access = HANDLER_TABLE_ACCESS[name];
      if (access === 'readwrite') expect(writes.sort()).toEqual([...TABLE_WRITE_ACTIONS].sort());
      else if (access === 'read') expect(writes, id).toEqual([]);
      else expect(writes.sort(), id).toEqual([...access].sort());
      // Query on exactly the indexes of the function's declared access patterns (lambdas/data/access-patterns.ts).
      const indexes = [...doc.matchAll(/\/index\/(GSI\d)/g)].map((m) => m[1]).sort();
      expect(indexes, id).toEqual(indexesOf(name));
    }
    // CDK's auto-delete provider (preview attachments bucket) is a CloudFormation-level role CDK writes, as in the Hosting stack.
    for (const [id, r] of ofType(t.api, 'AWS::IAM::Role')) if (!id.startsWith('CustomS3AutoDeleteObjects')) expect(r.Properties!.ManagedPolicyArns, id).toBeUndefined();
  });

  it('only the admin function (exactly COGNITO_ADMIN_ACTIONS) and the incidents function (ListUsersInGroup) may call Cognito, on this stage\u2019s user pool ARN; both get USER_POOL_ID; admin the audit retention', () => {
    const { t } = synthPr42();
    // (The notification consumer's and the monthly report job's ListUsersInGroup, for the tenant group's members:
    // test/infra/notifications.test.ts, monthly-report-mail.test.ts.)
    const cognitoStatements = ofType(t.api, 'AWS::IAM::Policy').filter(([id]) => !id.startsWith('NotificationDelivery') && !id.startsWith('MonthlyReportMail')).flatMap(([id, p]) =>
      (p.Properties!.PolicyDocument as { Statement: Array<{ Action: string | string[]; Resource: unknown }> }).Statement.filter((st) =>
        JSON.stringify(st.Action).includes('cognito-idp:'),
      ).map((st) => ({ id, st })),
    );
    expect(cognitoStatements).toHaveLength(2);
    const byRole = Object.fromEntries(cognitoStatements.map(({ id, st }) => [id.toLowerCase().replace(/role.*$/, ''), st as { Action: string | string[]; Resource: unknown }]));
    expect(Object.keys(byRole).sort()).toEqual(['admin', 'incidents']);
    expect([byRole.admin!.Action].flat().sort()).toEqual([...COGNITO_ADMIN_ACTIONS].sort());
    expect([byRole.incidents!.Action].flat()).toEqual(['cognito-idp:ListUsersInGroup']);
    for (const st of Object.values(byRole)) expect(JSON.stringify(st.Resource)).toMatch(/UserPool.*Arn/);
    const fns = Object.fromEntries(ofType(t.api, 'AWS::Lambda::Function').map(([, f]) => [String(f.Properties!.FunctionName), f.Properties!]));
    const env = (n: string) => (fns[`vigia-pr-42-${n}`]!.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(env('admin').USER_POOL_ID).toBeDefined();
    expect(env('incidents').USER_POOL_ID).toBeDefined();
    expect(env('devices').USER_POOL_ID).toBeUndefined();
    expect(env('admin').AUDIT_RETENTION_DAYS).toBe('30');
    const prod = synthProd().t.api;
    const prodAdmin = ofType(prod, 'AWS::Lambda::Function').find(([, f]) => String(f.Properties!.FunctionName).endsWith('-admin'))!;
    expect(Number((prodAdmin[1].Properties!.Environment as { Variables: Record<string, string> }).Variables.AUDIT_RETENTION_DAYS)).toBeGreaterThanOrEqual(400);
  });

  it('answers CORS preflight for the site origin (+ dev extra origins) with our headers', () => {
    const dev = synthDev().t.api;
    const pr = synthPr42().t.api;
    const optionsOf = (t: Template) => methodsOf(t).filter((m) => m.key.startsWith('OPTIONS '));
    expect(optionsOf(pr).length).toBeGreaterThan(0);
    for (const m of optionsOf(pr)) {
      const params = (m.props.Integration as { IntegrationResponses: Array<{ ResponseParameters: Record<string, unknown> }> })
        .IntegrationResponses[0]!.ResponseParameters;
      expect(params['method.response.header.Access-Control-Allow-Headers']).toBe(`'${CORS_ALLOW_HEADERS.join(',')}'`);
      expect(JSON.stringify(params['method.response.header.Access-Control-Allow-Origin'])).toContain('Vigia-pr-42-Hosting');
    }
    const devTemplates = JSON.stringify(optionsOf(dev).map((m) => m.props.Integration));
    expect(devTemplates).toContain('http://localhost:5173');
    expect(JSON.stringify(optionsOf(pr).map((m) => m.props.Integration))).not.toContain('localhost');
  });

  it('gateway responses carry CORS headers and the {code,message,requestId} body (authorizer 401 → UNAUTHORIZED)', () => {
    const { t } = synthProd();
    const gw = Object.fromEntries(ofType(t.api, 'AWS::ApiGateway::GatewayResponse').map(([, r]) => [r.Properties!.ResponseType, r.Properties!]));
    for (const type of ['UNAUTHORIZED', 'ACCESS_DENIED', 'DEFAULT_4XX', 'DEFAULT_5XX', 'THROTTLED', 'BAD_REQUEST_BODY']) {
      const r = gw[type]!;
      expect(r, type).toBeDefined();
      const headers = r.ResponseParameters as Record<string, unknown>;
      expect(JSON.stringify(headers['gatewayresponse.header.Access-Control-Allow-Origin'])).toContain('Vigia-prod-Hosting');
      expect(headers['gatewayresponse.header.Access-Control-Allow-Headers']).toBe(`'${CORS_ALLOW_HEADERS.join(',')}'`);
      const body = (r.ResponseTemplates as Record<string, string>)['application/json']!;
      // Valid JSON once API Gateway substitutes the (JSON-escaped) message.
      const parsed = JSON.parse(body.replace('$context.error.messageString', '"Unauthorized"').replace('$context.requestId', 'r-1')) as Record<string, unknown>;
      expect(Object.keys(parsed).sort()).toEqual(['code', 'message', 'requestId']);
    }
    expect(gw.UNAUTHORIZED!.StatusCode).toBe('401');
    expect(gw.UNAUTHORIZED!.ResponseTemplates).toEqual({
      'application/json': '{"code":"UNAUTHORIZED","message":$context.error.messageString,"requestId":"$context.requestId"}',
    });
    // dev echoes the request Origin (several allowed origins), prod pins the site origin.
    const devGw = ofType(synthDev().t.api, 'AWS::ApiGateway::GatewayResponse')[0]![1].Properties!.ResponseParameters as Record<string, unknown>;
    expect(devGw['gatewayresponse.header.Access-Control-Allow-Origin']).toBe('method.request.header.Origin');
  });

  it.each([
    ['pr-42', synthPr42, { rate: 5, burst: 10 }],
    ['prod', synthProd, { rate: 50, burst: 100 }],
  ] as const)('%s stage: JSON access logs, throttling from the stage config, request validator', (stage, get, limits) => {
    const { t } = get();
    const stages = ofType(t.api, 'AWS::ApiGateway::Stage');
    expect(stages).toHaveLength(1);
    const s = stages[0]![1].Properties!;
    expect(s.StageName).toBe(stage);
    const access = s.AccessLogSetting as { Format: string; DestinationArn: unknown };
    expect(JSON.parse(access.Format)).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(s.MethodSettings).toEqual([
      expect.objectContaining({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: limits.rate, ThrottlingBurstLimit: limits.burst }),
    ]);
    t.api.hasResourceProperties('AWS::ApiGateway::RequestValidator', { ValidateRequestBody: true, ValidateRequestParameters: true });
    t.api.hasResourceProperties('AWS::ApiGateway::RestApi', { Name: `vigia-${stage}-api` });
  });
});

describe('collector access', () => {
  it('a managed policy grants execute-api:Invoke on exactly the ingest routes of the stage', () => {
    const { t } = synthPr42();
    const policies = ofType(t.api, 'AWS::IAM::ManagedPolicy');
    expect(policies).toHaveLength(1);
    const [, policy] = policies[0]!;
    expect(policy.Properties!.ManagedPolicyName).toBe('vigia-pr-42-collector-invoke');
    const statements = (policy.Properties!.PolicyDocument as { Statement: Array<{ Action: string; Resource: unknown[] }> }).Statement;
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Action).toBe('execute-api:Invoke');
    const ingest = ROUTES.filter((r) => 'auth' in r && r.auth === 'iam');
    expect(ingest.length).toBeGreaterThan(0);
    const resourcesText = statements[0]!.Resource.map((r) => JSON.stringify(r));
    expect(resourcesText).toHaveLength(ingest.length);
    for (const r of ingest) expect(resourcesText.some((x) => x.includes(`/${r.method}${r.path}`)), r.path).toBe(true);
    // No customer route is reachable with it.
    expect(resourcesText.some((x) => x.includes('/incidents'))).toBe(false);
  });
});

describe('time-series retention per stage', () => {
  it('passes the stage\'s TTL retention to every function', () => {
    for (const [stage, synthed, expected] of [
      ['prod', synthProd(), { a: '400', o: '180' }],
      ['pr-42', synthPr42(), { a: '120', o: '30' }],
    ] as const) {
      const fns = ofType(synthed.t.api, 'AWS::Lambda::Function').filter(([, f]) => JSON.stringify(f.Properties).includes('TABLE_NAME'));
      expect(fns.length, stage).toBeGreaterThan(0);
      for (const [id, f] of fns) {
        const env = (f.Properties!.Environment as { Variables: Record<string, unknown> }).Variables;
        expect(env.AVAILABILITY_RETENTION_DAYS, `${stage} ${id}`).toBe(expected.a);
        expect(env.O365_EVENT_RETENTION_DAYS, `${stage} ${id}`).toBe(expected.o);
      }
    }
  });
});
