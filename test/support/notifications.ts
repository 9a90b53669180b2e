/**
 * Fixtures of the notification integration tests (`notifications-delivery`, `notifications-digest`): the
 * Lambda configuration pointed at the local engines, and the real SES + webhook senders pointed at the local
 * SES emulator (docs/notifications.md#offline, docs/testing.md).
 */
import { parseLambdaConfig, type LambdaConfig } from '../../lambdas/config.js';
import { notificationSenders } from '../../lambdas/data/notification-senders.js';
import type { SendersPort } from '../../lambdas/domain/notification-delivery.js';
import type { GroupMember } from '../../lambdas/domain/ports.js';

/** The sender address the tests' e-mails come from. */
export const TEST_EMAIL_FROM = 'Vigía <notificaciones@vigia.example>';

/** A tenant group member (`sub-<name>`, `<name>@<domain>`, confirmed). */
export const groupMember = (name: string, domain: string, enabled = true): GroupMember => ({ username: name, sub: `sub-${name}`, email: `${name}@${domain}`, status: 'CONFIRMED', enabled });

/** The Lambda configuration of stage `test` on table `tableName` of the local DynamoDB, e-mail to the SES emulator at `mailUrl`. */
export function notificationsTestConfig(o: { tableName: string; dynamodbEndpoint: string; mailUrl: string; siteUrl: string }): LambdaConfig {
  return parseLambdaConfig({
    stage: 'test',
    tableName: o.tableName,
    region: 'us-east-1',
    dynamodbEndpoint: o.dynamodbEndpoint,
    notifications: { siteUrl: o.siteUrl, emailFrom: TEST_EMAIL_FROM, sesEndpoint: o.mailUrl, allowLocalWebhooks: true },
    logLevel: 'SILENT',
  });
}

/** The real senders (SES v2 client + webhook poster) with the SES emulator at `mailUrl` and http://localhost webhooks allowed. */
export function localSenders(mailUrl: string): SendersPort {
  return notificationSenders({ emailFrom: TEST_EMAIL_FROM, sesRegion: 'us-east-1', sesEndpoint: mailUrl, credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, allowLocalHttp: true });
}
