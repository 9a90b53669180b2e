/**
 * The monthly report e-mail (issue 32 point 5; docs/notifications.md#monthly-report-e-mail): on the 1st of
 * each month (EventBridge `cron(0 6 1 * ? *)`), every tenant user who chose "Informe mensual por correo" in
 * their notification preferences (`monthlyReport: true`) receives ONE e-mail with the previous UTC month's
 * PDF report of their own tenant attached (`renderMonthlyReportPdf`), in their language (`es` default).
 *
 * Per tenant: one Query of its subscribers; a tenant without subscribers costs nothing more. With
 * subscribers: the tenant item (1 GetItem), the report figures (`monthlyReport`: the six months of the trend
 * read together, `loadPeriodsAggregates`) and the month's maintenance windows (1 Query), the PDF rendered ONCE per language needed, the group's members (Cognito), the
 * month's delivery records (1 Query), then per recipient a claim, an SES SendEmail and a finish.
 *
 * Exactly once per user per tenant-month: the delivery record `TENANT#<t>#DELIVERY#MONTHLY-<yyyy-mm>` /
 * `email#<sub>` is the marker item, claimed by a conditional UpdateItem (the per-event protocol of
 * lambdas/domain/notification-delivery.ts) before the send and finished after it, so a retried or
 * concurrent run sends nothing twice; a failed send is retried by a later run once due (backoff), dead
 * after `MAX_DELIVERY_ATTEMPTS`. Nobody of another tenant: tenants are iterated one by one, each with its
 * own group, preferences and aggregates.
 */
import { monthlyReportFileName, monthlyReportWithMaintenance, renderMonthlyReportPdf } from './monthly-report.js';
import { languageOf, type Language } from './messages.js';
import { deliveryStatusAt, sendClaimed, type DeliveryRecord, type MembersOf, type NotificationsPort, type SendersPort } from './notification-delivery.js';
import { deliveryIdOf, escapeHtml, portalUrl, type NotificationPreferences } from './notifications.js';
import { forEachTenant, subscribedMembers, type TenantPage } from './tenant-jobs.js';
import type { MaintenanceWindowsPort, ReportsPort, TenantsPort } from './ports.js';

/** Day of the month and UTC hour the AWS schedule runs the job (`cron(0 6 1 * ? *)`). */
export const MONTHLY_REPORT_DAY = 1;
export const MONTHLY_REPORT_HOUR_UTC = 6;
/** The "event id" of a month's delivery records: `MONTHLY-<yyyy-mm>`. */
export const monthlyReportKeyOf = (month: string): string => `MONTHLY-${month}`;

/** The UTC month (`yyyy-mm`) a run at `at` reports: the month before `at`'s UTC month. */
export function reportMonthOf(at: Date): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}

/** What the job reads besides `NotificationsPort` (`lambdas/data/monthly-report-mail.ts`). */
export interface MonthlyReportSourcePort {
  /** One page of registered tenant ids (Query `PK = TENANTS`), with the cursor of the next page. */
  tenantPage: TenantPage;
  /** The tenant's users whose stored preferences have `monthlyReport: true`, by sub (their language). */
  monthlySubscribers(tenantId: string): Promise<Map<string, Pick<NotificationPreferences, 'language'>>>;
}

export interface MonthlyReportMailDeps {
  source: MonthlyReportSourcePort;
  store: NotificationsPort;
  senders: SendersPort;
  members: MembersOf;
  reports: Pick<ReportsPort, 'loadPeriodsAggregates'>;
  /** The month's maintenance windows (one Query per tenant reported): the PDF's "N ventanas de mantenimiento excluidas" line. */
  maintenanceWindows: Pick<MaintenanceWindowsPort, 'overlapping'>;
  tenants: Pick<TenantsPort, 'getTenant'>;
  siteUrl: string;
  now?: () => Date;
  leaseSeconds?: number;
  onTenantError?: (tenantId: string, e: unknown) => void;
}

/** What one run did. */
export interface MonthlyReportMailOutcome {
  month: string;
  tenants: number;
  /** Tenants with at least one subscriber (their report was computed). */
  reported: number;
  subscribers: number;
  sent: number;
  failed: number;
  dead: number;
  /** Done before (`sent`/`dead`), not yet due, or held by another run. */
  skipped: number;
  /** PDFs rendered (at most one per language per reported tenant). */
  rendered: number;
  /** Still to send (failed and due later, held by a live claim) and tenants that failed: a later run must come. */
  open: number;
}

const MAIL: Record<Language, { subject: string; body: string; prefs: string }> = {
  es: { subject: 'Informe mensual de {{tenant}} — {{month}}', body: 'Adjuntamos el informe mensual de {{tenant}} de {{month}} (PDF). También puede descargarlo en Informes:', prefs: 'Recibe este correo porque eligió «Informe mensual por correo» en sus preferencias de notificación:' },
  en: { subject: 'Monthly report of {{tenant}} — {{month}}', body: 'Attached is the monthly report of {{tenant}} for {{month}} (PDF). You can also download it from Reports:', prefs: 'You receive this e-mail because you chose "Monthly report by e-mail" in your notification preferences:' },
};
const fill = (t: string, p: Record<string, string>) => t.replace(/\{\{(\w+)\}\}/g, (_, k: string) => p[k] ?? '');

/** The e-mail around the PDF, in `lang`: subject `[Vigía] Informe mensual de <tenant> — yyyy-mm`, a short text and HTML with links to Informes and the preferences. */
export function renderMonthlyReportEmail(tenantName: string, month: string, siteUrl: string, lang: Language): { subject: string; html: string; text: string } {
  const m = MAIL[lang];
  const p = { tenant: tenantName, month };
  const reportsUrl = portalUrl(siteUrl, '/reports');
  const prefsUrl = portalUrl(siteUrl, '/notifications/preferences');
  const subject = `[Vigía] ${fill(m.subject, p)}`;
  const text = `${fill(m.body, p)} ${reportsUrl}\n\n—\n${m.prefs} ${prefsUrl}`;
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937">
<p>${escapeHtml(fill(m.body, p))} <a href="${escapeHtml(reportsUrl)}">${escapeHtml(reportsUrl)}</a></p>
<p style="font-size:12px;color:#6b7280">${escapeHtml(m.prefs)} <a href="${escapeHtml(prefsUrl)}">${escapeHtml(prefsUrl)}</a></p></body></html>`;
  return { subject, html, text };
}

/**
 * Sends the monthly report of `month` (default: the month before `now`'s UTC month) to every subscriber of
 * every tenant; see the module doc. @throws storage errors of the tenant registry only (a tenant's errors
 * go to `onTenantError` and count in `open`)
 */
export async function runMonthlyReportMail(deps: MonthlyReportMailDeps, opts: { month?: string } = {}): Promise<MonthlyReportMailOutcome> {
  const now = deps.now ?? (() => new Date());
  const month = opts.month ?? reportMonthOf(now());
  const out: MonthlyReportMailOutcome = { month, tenants: 0, reported: 0, subscribers: 0, sent: 0, failed: 0, dead: 0, skipped: 0, rendered: 0, open: 0 };
  await forEachTenant((c) => deps.source.tenantPage(c), (tenantId) => mailTenant(tenantId, month, deps, out), out, deps.onTenantError);
  return out;
}

async function mailTenant(tenantId: string, month: string, deps: MonthlyReportMailDeps, out: MonthlyReportMailOutcome): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const subscribers = await deps.source.monthlySubscribers(tenantId);
  if (subscribers.size === 0) return;
  const key = monthlyReportKeyOf(month);
  const [tenant, members, existing] = await Promise.all([deps.tenants.getTenant(tenantId), deps.members(tenantId), deps.store.listEventDeliveries(tenantId, key)]);
  if (!tenant) return;
  const byId = new Map<string, DeliveryRecord>(existing.map((r) => [r.deliveryId, r]));
  // Who is still to be sent, before anything is computed: a rerun after a complete run reads no aggregates.
  const due: { sub: string; email: string; lang: Language; deliveryId: string }[] = [];
  const t0 = now();
  for (const { member: m, prefs } of subscribedMembers(members, subscribers)) {
    out.subscribers++;
    const deliveryId = deliveryIdOf(key, 'email', m.sub);
    const status = deliveryStatusAt(byId.get(deliveryId), t0);
    if (status === 'done') { out.skipped++; continue; }
    if (status === 'waiting') { out.skipped++; out.open++; continue; }
    due.push({ sub: m.sub, email: m.email, lang: languageOf(prefs.language), deliveryId });
  }
  if (due.length === 0) return;
  out.reported++;
  // The month's report read once; its PDF rendered once per language needed.
  const report = await monthlyReportWithMaintenance({ reports: deps.reports, maintenanceWindows: deps.maintenanceWindows }, tenant, month, now());
  const pdfs = new Map<Language, Promise<Uint8Array>>();
  const pdfOf = (lang: Language) => {
    if (!pdfs.has(lang)) {
      out.rendered++;
      pdfs.set(lang, renderMonthlyReportPdf(report, lang));
    }
    return pdfs.get(lang)!;
  };
  for (const r of due) {
    const mail = renderMonthlyReportEmail(tenant.name, month, deps.siteUrl, r.lang);
    const pdf = await pdfOf(r.lang);
    const claimed = await deps.store.claimDelivery({ tenantId, eventId: key, channel: 'email', recipient: r.sub, deliveryId: r.deliveryId, kind: 'monthly-report', title: mail.subject }, now(), deps.leaseSeconds ?? 120);
    if (!claimed) { out.skipped++; out.open++; continue; }
    const { state } = await sendClaimed(deps.store, claimed, () => deps.senders.sendEmail({ to: r.email, ...mail, deliveryId: r.deliveryId, attachments: [{ fileName: monthlyReportFileName(tenantId, month), contentType: 'application/pdf', content: pdf }] }), now);
    out[state]++;
    if (state === 'failed') out.open++;
  }
}
