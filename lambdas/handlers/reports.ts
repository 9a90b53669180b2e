/**
 * Reports Lambda: getReport (`GET /reports`, tenant-scoped) and getAnalytics (`GET /analytics`, `admin`
 * only — enforced here by the route table's `groups`, not by the portal). Both answer JSON, or CSV with
 * `format=csv` (`Content-Disposition: attachment`). Figures: `lambdas/domain/reports.ts`.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AnalyticsQuery, ReportQuery, type Analytics, type Report } from '../contract/schemas.js';
import { buildReport, reportToCsv } from '../domain/reports.js';
import { createApi, type Operation, type OperationContext, type OperationResult } from '../http/api.js';

/** Default period: the 30 days before now. */
const DEFAULT_DAYS = 30;

function periodOf(ctx: OperationContext, q: { from?: string | undefined; to?: string | undefined }): { from: string; to: string } {
  const to = q.to ? new Date(q.to).toISOString() : ctx.now.toISOString();
  const from = q.from ? new Date(q.from).toISOString() : new Date(Date.parse(to) - DEFAULT_DAYS * 86_400_000).toISOString();
  return { from, to };
}

function csv(name: string, text: string): OperationResult {
  return { status: 200, body: text, contentType: 'text/csv; charset=utf-8', headers: { 'Content-Disposition': `attachment; filename="${name}"` } };
}

export const operations = {
  getReport: async (ctx) => {
    const q = ctx.query(ReportQuery);
    const period = periodOf(ctx, q);
    const data = await ctx.repo.reports.load(ctx.tenantId!, period.from, period.to);
    const report: Report = { tenantId: ctx.tenantId!, generatedAt: ctx.now.toISOString(), ...buildReport([data], period, ctx.now) };
    if (q.format === 'csv') return csv(`vigia-${ctx.tenantId}-${period.from.slice(0, 10)}-${period.to.slice(0, 10)}.csv`, reportToCsv(report));
    return { status: 200, body: report };
  },
  getAnalytics: async (ctx) => {
    const q = ctx.query(AnalyticsQuery);
    const period = periodOf(ctx, q);
    const tenants = await ctx.repo.tenants.listTenants();
    const data = await Promise.all(tenants.map((t) => ctx.repo.reports.load(t.id, period.from, period.to)));
    const body: Analytics = {
      generatedAt: ctx.now.toISOString(),
      totals: buildReport(data, period, ctx.now),
      tenants: tenants.map((t, i) => ({ tenantId: t.id, tenantName: t.name, ...buildReport([data[i]!], period, ctx.now) })),
    };
    if (q.format === 'csv') {
      const parts = [reportToCsv(body.totals), ...body.tenants.map((t) => reportToCsv(t).split('\r\n').slice(1).join('\r\n'))];
      return csv(`vigia-analytics-${period.from.slice(0, 10)}-${period.to.slice(0, 10)}.csv`, parts.join(''));
    }
    return { status: 200, body };
  },
} satisfies Record<string, Operation>;

const api = createApi('reports', operations);

/** API Gateway REST (v1 proxy) entry point. */
export function handler(event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> {
  return api(event, context);
}
