/**
 * Notifications Lambda: the caller's e-mail preferences (`GET`/`PUT /notifications/preferences`) and the
 * tenant's webhooks (`GET`/`POST /webhooks`, `DELETE /webhooks/{id}`, `POST /webhooks/{id}/test`,
 * `GET /webhooks/{id}/deliveries`), tenant from the claims (staff: `?tenant=`). Rules:
 * `lambdas/domain/notification-settings.ts`; delivery itself is `notifications-consumer.ts`.
 *
 * "Send test" posts from this function (a 5 s timeout; the route's Lambda timeout is above it) with the
 * same sender and URL policy as the consumer (`config.notifications.allowLocalWebhooks` is false in AWS:
 * https only, public addresses only).
 */
import type { LambdaConfig } from '../config.js';
import { notificationSenders } from '../data/notification-senders.js';
import type { SendersPort } from '../domain/notification-delivery.js';
import * as settings from '../domain/notification-settings.js';
import { createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type Operations } from '../http/api.js';

export interface NotificationsHandlerDeps extends HandlerDeps {
  /** Webhook sender of "send test" (default: the HTTPS sender with the configuration's URL policy). */
  senders?: Pick<SendersPort, 'postWebhook'>;
}

export function notificationsOperations(config: LambdaConfig, senders: Pick<SendersPort, 'postWebhook'>): Operations<'notifications'> {
  const policy = { allowLocalHttp: config.notifications.allowLocalWebhooks };
  const siteUrl = config.notifications.siteUrl ?? config.allowedOrigins[0] ?? 'http://localhost';
  return {
    getNotificationPreferences: ({ repo, tenantId, identity }) => settings.getPreferences(repo.notifications, tenantId, identity.sub),
    putNotificationPreferences: ({ repo, tenantId, identity, body, now }) => settings.putPreferences(repo.notifications, tenantId, identity.sub, body, now),
    listWebhooks: ({ repo, tenantId }) => settings.listWebhooks(repo.notifications, tenantId),
    createWebhook: ({ repo, tenantId, identity, body, now }) => settings.createWebhook(repo.notifications, tenantId, body, identity.email || identity.sub, now, policy),
    deleteWebhook: ({ repo, tenantId, params }) => settings.deleteWebhook(repo.notifications, tenantId, params.id),
    testWebhook: ({ repo, tenantId, params, now }) => settings.testWebhook(repo.notifications, senders, tenantId, params.id, siteUrl, now),
    listWebhookDeliveries: ({ repo, tenantId, params }) => settings.listWebhookDeliveries(repo.notifications, tenantId, params.id),
  };
}

/** The notifications API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps: NotificationsHandlerDeps = {}): ApiHandler {
  const senders =
    deps.senders ??
    notificationSenders({ emailFrom: '', sesRegion: config.region, allowLocalHttp: config.notifications.allowLocalWebhooks });
  return createApi('notifications', notificationsOperations(config, senders), config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
