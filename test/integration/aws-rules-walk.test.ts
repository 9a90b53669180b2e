/**
 * IAM on every call, walked: every operation of the route table once as its caller, the status filter the
 * dashboard uses, and each job (the SLA job, the notification consumer's sweep with e-mail through the SES
 * emulator, the daily digest), each as its function, against a real engine with DynamoDB's rules on. Every AWS
 * call they make is evaluated against the function's role as synthesized for the dev stage
 * (scripts/aws-rules/recorder.ts); `test/support/aws-rules-setup.ts` fails the file on any deny. The calls the
 * pre-token-generation trigger makes through the AWS SDK (not published by aws-lite) are evaluated from its
 * code's own action lists.
 *
 * `npm run check:aws` runs this file and prints the figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessApi, type InProcessApi } from '../support/in-process-api.js';
import { exampleEvent, seedExamples } from '../support/route-examples.js';
import { ROUTES } from '../../lambdas/contract/routes.js';
import { lambdaContext, apiEvent } from '../support/events.js';
import { acquireRuntimeIamCheck, checkCallAs, runAsFunction, runtimeIamReport, type RuntimeIamCheck } from '../../scripts/aws-rules/recorder.js';
import { slaWatch } from '../../lambdas/triggers/sla-watch.js';
import { createConsumer } from '../../lambdas/handlers/notifications-consumer.js';
import { createDigestJob } from '../../lambdas/triggers/notification-digest.js';
import { createDocumentClient } from '../../lambdas/data/index.js';
import { parseLambdaConfig } from '../../lambdas/config.js';
import { LOCAL_EMAIL_FROM, localSenders, startMailEmulator } from '../../scripts/local/notifications.js';
import { PRE_TOKEN_COGNITO_ACTIONS } from '../../lambdas/triggers/pre-token-generation.js';
import { notificationsDlqName } from '../../infra/notifications.js';

const TABLE = 'vigia-awsrules-main';
let api: InProcessApi;
let iam: RuntimeIamCheck;
let mail: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  iam = await acquireRuntimeIamCheck();
  api = await startInProcessApi({ table: TABLE });
  await seedExamples(api.data);
  mail = await startMailEmulator({ port: 0, host: '127.0.0.1' });
}, 120_000);

afterAll(async () => {
  await mail?.stop();
  await api?.stop();
  iam?.release();
});

describe('every route as its function', () => {
  it.each(ROUTES.map((r) => [r.operationId, r] as const))('%s', async (_id, row) => {
    const res = await api.handler(row.handler)(exampleEvent(row), lambdaContext);
    expect(res.statusCode, res.body).toBeLessThan(500);
  });

  it('evaluated calls of every API function (a walk that evaluated nothing proves nothing)', () => {
    const report = runtimeIamReport();
    for (const name of new Set(ROUTES.map((r) => r.handler))) expect(report.byPrincipal[`vigia-dev-${name}`]?.calls, name).toBeGreaterThan(0);
  });

  it('the CSV exports, each audited in the same request (report, analytics, audit log)', async () => {
    for (const id of ['getReport', 'getAnalytics', 'listAuditLog']) {
      const row = ROUTES.find((r) => r.operationId === id)!;
      const event = exampleEvent(row, { query: { format: 'csv' } });
      const res = await api.handler(row.handler)(event, lambdaContext);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
    }
  });

  it('the status filter (dashboard tiles) queries GSI3 as the incidents function, allowed', async () => {
    const res = await api.handler('incidents')(apiEvent({ method: 'GET', path: '/incidents', query: { status: 'new' }, caller: { sub: 'u-acme', groups: ['acme'] } }), lambdaContext);
    expect(res.statusCode, res.body).toBe(200);
    expect(runtimeIamReport().byPrincipal['vigia-dev-incidents']?.used).toContain('dynamodb:Query arn:aws:dynamodb:us-east-1:111111111111:table/vigia-dev-main/index/GSI3');
  });
});

describe('the jobs as their functions', () => {
  const config = () =>
    parseLambdaConfig({
      ...api.config,
      notifications: { ...api.config.notifications, siteUrl: 'http://127.0.0.1:5173', emailFrom: LOCAL_EMAIL_FROM, sesEndpoint: mail.url },
    });
  const table = () => ({ doc: createDocumentClient(api.documentClientOptions()), tableName: TABLE });
  const users = { listGroupMembers: async () => [{ username: 'u-1', sub: 'sub-u-1', email: 'u-1@acme.example', status: 'CONFIRMED' as const, enabled: true, mfa: false }] };

  it('the SLA job', async () => {
    await runAsFunction('sla-watch', () => slaWatch(table(), new Date()));
    expect(runtimeIamReport().byPrincipal['vigia-dev-sla-watch']?.calls).toBeGreaterThan(0);
  });

  it('the notification consumer\'s sweep, e-mail through SES', async () => {
    const consumer = createConsumer(config(), { table: table(), users, senders: localSenders(config()) });
    await runAsFunction('notifications-consumer', () => consumer.sweep({ minAgeSeconds: 0 }));
    const used = runtimeIamReport().byPrincipal['vigia-dev-notifications-consumer']?.used ?? [];
    expect(used.some((u) => u.startsWith('dynamodb:Query'))).toBe(true);
  });

  it('an e-mail as the consumer sends it (SES v2 SendEmail on the stage\'s identity)', async () => {
    await runAsFunction('notifications-consumer', () => localSenders(config()).sendEmail({ to: 'u-1@acme.example', subject: 'Prueba', html: '<p>Prueba</p>', text: 'Prueba', deliveryId: 'd-1' }));
    expect(runtimeIamReport().byPrincipal['vigia-dev-notifications-consumer']?.used).toContain('ses:SendEmail arn:aws:ses:us-east-1:111111111111:identity/notificaciones@vigia.example');
  });

  it('the daily digest', async () => {
    const job = createDigestJob(config(), { table: table(), users, senders: localSenders(config()) });
    await runAsFunction('notification-digest', () => job.run(new Date()));
    expect(runtimeIamReport().byPrincipal['vigia-dev-notification-digest']?.calls).toBeGreaterThan(0);
  });

  it('what Lambda calls with the consumer\'s role: its stream mapping reads the table\'s stream, its on-failure destination is the dead-letter queue', async () => {
    for (const op of ['DescribeStream', 'GetRecords', 'GetShardIterator', 'ListStreams']) {
      const refused = await checkCallAs('notifications-consumer', { service: 'dynamodbstreams', target: `DynamoDBStreams_20120810.${op}`, payload: '{}' });
      expect(refused?.message, op).toBeUndefined();
    }
    const dlq = `https://sqs.us-east-1.amazonaws.com/000000000000/${notificationsDlqName('local')}`;
    const refused = await checkCallAs('notifications-consumer', { service: 'sqs', target: 'AmazonSQS.SendMessage', payload: JSON.stringify({ QueueUrl: dlq }) });
    expect(refused?.message).toBeUndefined();
  });

  it('the pre-token-generation trigger\'s SDK calls (AdminGetUser, AdminAddUserToGroup) on the pool', async () => {
    for (const action of PRE_TOKEN_COGNITO_ACTIONS) {
      const refused = await checkCallAs('pre-token-generation', { service: 'cognito-idp', target: `AWSCognitoIdentityProviderService.${action.split(':')[1]}`, payload: '{}' });
      expect(refused?.message).toBeUndefined();
    }
  });
});
