/**
 * Contract of the monthly PDF report (`GET /reports/monthly/{month}`; docs/api.md#monthly-report): the month in
 * the path, the reader's language in the query, and the PDF answered inside JSON as base64 (the portal builds
 * a Blob from it; why not a binary body: docs/api.md#monthly-report).
 */
import * as z from 'zod';
import { SEVERITIES, TenantQuery } from './schemas.js';

/** Path of `GET /reports/monthly/{month}`: a UTC month `yyyy-mm` (checked against the calendar and now by `reportMonth`). */
export const MonthlyReportParams = z.strictObject({ month: z.string().max(7) });

/** Query: the tenant (staff) and the language of the PDF's texts (`es` default, `en`). */
export const MonthlyReportQuery = TenantQuery.extend({ lang: z.enum(['es', 'en']).default('es') });
export type MonthlyReportQuery = z.input<typeof MonthlyReportQuery>;

/** The PDF file: its name, `application/pdf` and its bytes in base64 (RFC 4648 §4). */
export const MonthlyReportFile = z.object({
  fileName: z.string(),
  contentType: z.literal('application/pdf'),
  /** The PDF, base64; a big tenant's report is tens of KB (the Lambda response limit is 6 MB). */
  base64: z.string(),
  /** Bytes of the PDF before base64. */
  size: z.number().int(),
  /**
   * The month's resolution-SLA compliance per severity, as the PDF's table (severity × met / breached / %):
   * incidents created in the month and resolved, within their SLA (`met`) or late (`breached`); `compliancePct`
   * = met / resolved × 100, two decimals, null when none was resolved (docs/sla.md).
   */
  slaBySeverity: z.object(
    Object.fromEntries(
      SEVERITIES.map((s) => [s, z.object({ resolved: z.number().int(), met: z.number().int(), breached: z.number().int(), compliancePct: z.number().nullable() })]),
    ) as Record<(typeof SEVERITIES)[number], z.ZodObject<{ resolved: z.ZodNumber; met: z.ZodNumber; breached: z.ZodNumber; compliancePct: z.ZodNullable<z.ZodNumber> }>>,
  ),
  /**
   * The month's maintenance windows, whose downtime the availability figures exclude (docs/sla.md#maintenance-windows):
   * `windows` overlapping the month, `minutes` they cover inside it (overlaps once, rounded). The PDF prints
   * "N ventanas de mantenimiento excluidas (M min)".
   */
  maintenance: z.object({ windows: z.number().int().min(0), minutes: z.number().int().min(0) }),
});
export type MonthlyReportFile = z.infer<typeof MonthlyReportFile>;

/** Months of SLA compliance `GET /reports/sla-history` answers, the current month included. */
export const SLA_HISTORY_MONTHS = 12;

/**
 * `GET /reports/sla-history`: resolution-SLA compliance per UTC month over the last `SLA_HISTORY_MONTHS`
 * months, oldest first (the same definition as a report's `sla`: docs/sla.md).
 */
export const SlaHistory = z.object({
  months: z.array(
    z.object({
      /** `yyyy-mm`. */
      month: z.string(),
      resolved: z.number().int(),
      resolvedWithinSla: z.number().int(),
      /** resolvedWithinSla / resolved × 100, two decimals; null when nothing was resolved. */
      compliancePct: z.number().nullable(),
    }),
  ),
});
export type SlaHistory = z.infer<typeof SlaHistory>;
