/**
 * What the monthly report e-mail job reads (`MonthlyReportSourcePort`, lambdas/domain/monthly-report-mail.ts;
 * docs/notifications.md#monthly-report-e-mail). Only Queries, each paged with LastEvaluatedKey (no Scan):
 *  - tenants: the digest job's registry pages (`digestSource(table).tenantPage`: Query `PK = TENANTS`, 100 a page);
 *  - a tenant's subscribers: Query `PK = TENANT#<t>#NOTIFPREFS` (all pages), FilterExpression
 *    `monthlyReport = true` (one small item per user who saved preferences).
 * The report figures are the reports repository's (`reportsRepository(table).loadPeriodsAggregates`), the delivery
 * records the per-event ones (`notificationsRepository`).
 */
import type { MonthlyReportSourcePort } from '../domain/monthly-report-mail.js';
import type { AttributeMap, TableRef } from './table/client.js';
import { keys } from './table/keys.js';
import { digestSource } from './notification-digest.js';

/** The monthly report job's reads over `table`. */
export function monthlyReportSource(table: TableRef): MonthlyReportSourcePort {
  const registry = digestSource(table);
  type QueryOut = { Items?: AttributeMap[]; LastEvaluatedKey?: AttributeMap };
  return {
    tenantPage: (cursor) => registry.tenantPage(cursor),
    async monthlySubscribers(tenantId) {
      const out = new Map<string, { language?: 'es' | 'en' }>();
      let start: AttributeMap | undefined;
      do {
        const res = (await table.doc.send('Query', {
          TableName: table.tableName,
          KeyConditionExpression: 'PK = :p',
          FilterExpression: 'monthlyReport = :t',
          ProjectionExpression: '#s, #l',
          ExpressionAttributeNames: { '#s': 'sub', '#l': 'language' },
          ExpressionAttributeValues: { ':p': keys.notificationPrefsPk(tenantId), ':t': true },
          ...(start ? { ExclusiveStartKey: start } : {}),
        } as never)) as QueryOut;
        for (const i of res.Items ?? []) out.set(String(i.sub), i.language === 'en' || i.language === 'es' ? { language: i.language } : {});
        start = res.LastEvaluatedKey;
      } while (start);
      return out;
    },
  };
}
