/**
 * A customer's figures of the period on `/analytics`, declared once (docs/portal.md#field-registries): the
 * "Por cliente" table's columns and the per-customer CSV's columns both come from {@link TENANT_FIGURES_FIELDS}.
 * Labels are the catalogue's `fields.figures.*` (shared with the report's figures, `shared/ui/report.tsx`); the
 * CSV has minutes and percentages as plain numbers, the table as the reader's durations and percentages.
 */
import type { Analytics } from '../../shared/lib/contract';
import { formatPercent } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { csvColumnsOf, listFieldsOf, type EntityField } from '../../shared/ui/fields';
import { fleetHealth, formatDuration } from '../../shared/ui/report';

/** One customer's row of `GET /analytics`. */
export type TenantFigures = Analytics['tenants'][number];

const minutes = (m: number | null) => (m === null ? null : Math.round(m));

/** Every figure of a customer the page shows or exports, in display order. */
export const TENANT_FIGURES_FIELDS: readonly EntityField<TenantFigures>[] = [
  { key: 'customer', label: () => msg('fields.common.customer'), cell: (t) => t.tenantName, csv: { value: (t) => t.tenantName } },
  { key: 'tenantId', label: () => msg('fields.figures.tenantId'), csv: { value: (t) => t.tenantId } },
  { key: 'incidents', label: () => msg('fields.figures.incidents'), numeric: true, cell: (t) => t.incidents.total, csv: { value: (t) => t.incidents.total } },
  { key: 'mtta', label: () => msg('fields.figures.mtta'), cell: (t) => formatDuration(t.mttaMinutes), csv: { header: () => msg('fields.figures.mttaMin'), value: (t) => minutes(t.mttaMinutes) } },
  { key: 'mttr', label: () => msg('fields.figures.mttr'), cell: (t) => formatDuration(t.mttrMinutes), csv: { header: () => msg('fields.figures.mttrMin'), value: (t) => minutes(t.mttrMinutes) } },
  { key: 'slaCompliance', label: () => msg('fields.figures.slaCompliance'), numeric: true, cell: (t) => formatPercent(t.sla.compliancePct), csv: { header: () => msg('fields.figures.slaCompliancePct'), value: (t) => t.sla.compliancePct } },
  { key: 'openBreached', label: () => msg('fields.figures.openBreachedShort'), numeric: true, cell: (t) => t.sla.openBreached, csv: { header: () => msg('fields.figures.openBreached'), value: (t) => t.sla.openBreached } },
  {
    key: 'fleetHealth',
    label: () => msg('fields.figures.fleetHealth'),
    cell: (t) => {
      const fleet = fleetHealth(t);
      return (
        <>
          {formatPercent(fleet.pct)} · {fleet.below}
          {fleet.belowIsAtLeast ? '+' : ''} {msg('fields.figures.belowTargetShort')}
        </>
      );
    },
    csv: { header: () => msg('fields.figures.fleetAvailabilityPct'), value: (t) => fleetHealth(t).pct },
  },
  { key: 'devicesBelowTarget', label: () => msg('fields.figures.devicesBelowTarget30d'), csv: { value: (t) => fleetHealth(t).below } },
];

/** The table's columns. */
export const TENANT_FIGURES_LIST_FIELDS = listFieldsOf(TENANT_FIGURES_FIELDS);
/** The per-customer CSV's columns (headers in the current language). */
export const TENANT_FIGURES_CSV_COLUMNS = csvColumnsOf(TENANT_FIGURES_FIELDS);
