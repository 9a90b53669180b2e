/**
 * Reports Lambda: getReport (`GET /reports`, tenant-scoped), getSummary (`GET /summary`, tenant-scoped,
 * lambdas/domain/summary.ts) and getAnalytics (`GET /analytics`, `admin`
 * only — enforced by the route table's `groups`, not by the portal). Both answer JSON, or CSV with
 * `format=csv` (`Content-Disposition: attachment`). Figures: `lambdas/domain/reports.ts`.
 */
import type { LambdaConfig } from '../config.js';
import type { AuditEntry } from '../contract/schemas.js';
import { auditEntryFor, STAFF_AUDIT_TENANT } from '../domain/audit.js';
import { monthlyReportFile, slaHistory } from '../domain/monthly-report.js';
import { analytics, CsvDownload, tenantReport } from '../domain/reports.js';
import { conditionalSummary } from '../domain/summary.js';
import { CacheValidated, createApi, handlerFromEnv, type ApiHandler, type HandlerDeps, type OperationInput, type Operations } from '../http/api.js';

/**
 * Every CSV export writes an audit entry (docs/api.md#audit-log): `export.report` in the tenant's log,
 * `export.analytics` in the staff log. A JSON read is not audited.
 */
async function audited<T>(result: T | CsvDownload, repo: OperationInput<'getReport'>['repo'], entry: () => AuditEntry): Promise<T | CsvDownload> {
  if (result instanceof CsvDownload) await repo.audit.put(entry());
  return result;
}

export const operations: Operations<'reports'> = {
  getReport: async ({ repo, tenantId, query, now, identity, requestId, sourceIp }) =>
    audited(await tenantReport(repo.reports, tenantId, query, now), repo, () =>
      auditEntryFor({ identity, now, requestId, sourceIp }, tenantId, 'export.report', { type: 'report', id: tenantId }, { after: { ...query } }),
    ),
  // The PDF inside JSON (docs/api.md#monthly-report); a read, not audited (as a JSON report).
  getMonthlyReport: async ({ repo, tenantId, params, query, now }) => monthlyReportFile(repo, tenantId, params.month, query.lang, now),
  getSlaHistory: async ({ repo, tenantId, now }) => slaHistory(repo.reports, tenantId, now),
  // ETag / 304 after one read when nothing changed (docs/api.md#summary).
  getSummary: async ({ repo, tenantId, query, now, headers }) => {
    const r = await conditionalSummary(repo.reports, tenantId, query, now, headers['If-None-Match']);
    return new CacheValidated(r.summary, r.etag);
  },
  getAnalytics: async ({ repo, query, now, identity, requestId, sourceIp }) =>
    audited(await analytics(repo, query, now), repo, () =>
      auditEntryFor({ identity, now, requestId, sourceIp }, STAFF_AUDIT_TENANT, 'export.analytics', { type: 'analytics', id: '*' }, { after: { ...query } }),
    ),
};

/** The reports API for an explicit configuration (local gateway, tests). */
export function createHandler(config: LambdaConfig, deps?: HandlerDeps): ApiHandler {
  return createApi('reports', operations, config, deps);
}

/** API Gateway REST (v1 proxy) entry point; configuration from the environment on the first invocation. */
export const handler: ApiHandler = handlerFromEnv(createHandler);
