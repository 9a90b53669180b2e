/**
 * Data hooks of the notification settings screens (docs/notifications.md#portal-screens): the caller's e-mail
 * preferences in the active tenant (`GET`/`PUT /notifications/preferences`) and the active tenant's webhooks
 * (`GET`/`POST /webhooks`, `DELETE /webhooks/{id}`, `POST /webhooks/{id}/test`, `GET /webhooks/{id}/deliveries`).
 * Customers act on their own tenant; staff on the tenant picked in the header (`useActivityTenant`). Every
 * request waits until the active tenant is known (staff without it would get 400 TENANT_REQUIRED).
 */
import { useSWRConfig } from 'swr';
import { ACTIVITY_KINDS, type ActivityKind, type NotificationPreferences, type OperationBody, type WebhookView } from '../../shared/lib/contract';
import { callOp, useApi, useApiSWR } from '../../shared/lib/api-context';
import { formErrorsOf, topLevelField, withReference, type FormErrors } from '../../shared/lib/form-errors';
import { t as msg } from '../../shared/lib/messages';
import { useActivityTenant } from './activity';

/** The caller's preferences in the active tenant (the API answers the defaults when never saved). */
export function useNotificationPreferences() {
  const tenant = useActivityTenant();
  return useApiSWR('getNotificationPreferences', tenant ? { query: tenant } : null, { revalidateOnFocus: false });
}

/** Saves the preferences (PUT) and puts the answer in the cache. */
export function useSavePreferences(): (body: NotificationPreferences) => Promise<NotificationPreferences> {
  const api = useApi();
  const tenant = useActivityTenant();
  const { mutate } = useSWRConfig();
  return async (body) => {
    const query = tenant ?? {};
    const saved = await callOp(api, 'putNotificationPreferences', { query, body });
    await mutate(['getNotificationPreferences', { query }], saved, { revalidate: false });
    return saved;
  };
}

/** The active tenant's webhooks (at most 20, oldest first). */
export function useWebhooks() {
  const tenant = useActivityTenant();
  return useApiSWR('listWebhooks', tenant ? { query: tenant } : null);
}

/** The last 20 deliveries of webhook `id` (null = not asked yet). */
export function useWebhookDeliveries(id: string | null) {
  const tenant = useActivityTenant();
  return useApiSWR('listWebhookDeliveries', tenant && id ? { params: { id }, query: tenant } : null);
}

/** Create, delete and test, each revalidating the list where it changed. */
export function useWebhookActions() {
  const api = useApi();
  const tenant = useActivityTenant();
  const query = tenant ?? {};
  const { mutate } = useSWRConfig();
  const refreshList = () => mutate(['listWebhooks', { query }]);
  return {
    create: async (body: OperationBody<'createWebhook'>) => {
      const created = await callOp(api, 'createWebhook', { query, body });
      await refreshList();
      return created;
    },
    remove: async (id: string) => {
      const removed = await callOp(api, 'deleteWebhook', { params: { id }, query });
      await refreshList();
      return removed;
    },
    test: (id: string) => callOp(api, 'testWebhook', { params: { id }, query }),
  };
}

/** Spanish (or English) label of an event kind (`notifications.kinds.*`). */
export function kindLabel(kind: string): string {
  return (ACTIVITY_KINDS as readonly string[]).includes(kind) ? msg(`notifications.kinds.${kind as ActivityKind}`) : kind;
}

/** What a webhook receives, in words: "Alta o superior; todos los tipos" or "…; 2 tipos: A, B". */
export function receivesText(w: Pick<WebhookView, 'minSeverity' | 'kinds'>): string {
  const kinds = w.kinds === null ? msg('notifications.webhooks.allKinds') : msg('notifications.webhooks.kindsCount', { count: w.kinds.length, list: w.kinds.map(kindLabel).join(', ') });
  return msg('notifications.webhooks.receivesText', { severity: msg(`notifications.minSeverity.${w.minSeverity}`), kinds });
}

/** A form's fields as the API named them (`body.<field>`). */
export type FieldErrors = FormErrors;

/**
 * The API's refusal as errors per field (VALIDATION_FAILED `details[].path` = `body.<field>[.<i>]`) for the
 * fields in `fields`; anything else as one form error (with the request id) — `formErrorsOf`.
 */
export function fieldErrorsOf(err: unknown, fields: readonly string[], formMessage: (message: string) => string): FieldErrors {
  return formErrorsOf(err, { fieldOf: topLevelField(fields), formText: (message, id) => formMessage(withReference(message, id)) });
}

/** A webhook send error as the user reads it: the API's `WEBHOOK_UNREACHABLE` code in words (docs/notifications.md#webhook-url-policy). */
export const sendErrorText = (error: string): string => (error === 'WEBHOOK_UNREACHABLE' ? msg('notifications.webhooks.unreachable') : error);
