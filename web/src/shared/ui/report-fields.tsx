/**
 * Field registries of a report's tables (docs/portal.md#field-registries): the most frequent alarms and the
 * devices below the availability target, each declared once and read by both the Informes tables
 * (`features/reports/ReportsPage.tsx`) and the report's CSV ({@link reportToCsv} in `./report.tsx`).
 */
import { Link } from 'react-router-dom';
import type { ReportFigures } from '../lib/contract';
import { formatPercent, SEVERITY_LABELS } from '../lib/format';
import { devicePath } from '../lib/links';
import { t } from '../lib/messages';
import { SeverityBadge } from './badges';
import { csvColumnsOf, listFieldsOf, type EntityField } from './fields';

/** One of a report's most frequent alarms (grouped by title). */
export type TopAlarm = ReportFigures['topAlarms'][number];
/** One of a report's devices below the availability target. */
export type DeviceBelowTarget = ReportFigures['availability']['belowSla'][number];

/** The most frequent alarms: title, how many times, highest severity. */
export const TOP_ALARM_FIELDS: readonly EntityField<TopAlarm>[] = [
  { key: 'title', label: () => t('fields.alarm.title'), cell: (a) => a.title, csv: { value: (a) => a.title } },
  { key: 'count', label: () => t('fields.topAlarm.count'), numeric: true, cell: (a) => a.count, csv: { value: (a) => a.count } },
  { key: 'highestSeverity', label: () => t('fields.topAlarm.highestSeverity'), cell: (a) => <SeverityBadge severity={a.highestSeverity} />, csv: { value: (a) => SEVERITY_LABELS[a.highestSeverity] } },
];

/** The devices below the availability target: device (linked), its id (CSV only), 30-day availability. */
export const DEVICE_BELOW_TARGET_FIELDS: readonly EntityField<DeviceBelowTarget>[] = [
  { key: 'device', label: () => t('fields.deviceAvailability.device'), cell: (d) => <Link to={devicePath(d.deviceId, d.tenantId)}>{d.name}</Link>, csv: { value: (d) => d.name } },
  { key: 'deviceId', label: () => t('fields.deviceAvailability.deviceId'), csv: { value: (d) => d.deviceId } },
  {
    key: 'availability30d',
    label: () => t('fields.deviceAvailability.availability30d'),
    numeric: true,
    cellClass: 'text-danger',
    cell: (d) => formatPercent(d.availability30d),
    csv: { header: () => t('fields.deviceAvailability.availability30dPct'), value: (d) => d.availability30d },
  },
];

/** The Informes table columns and the CSV columns of both registries. */
export const TOP_ALARM_LIST_FIELDS = listFieldsOf(TOP_ALARM_FIELDS);
export const TOP_ALARM_CSV_COLUMNS = csvColumnsOf(TOP_ALARM_FIELDS);
export const DEVICE_BELOW_TARGET_LIST_FIELDS = listFieldsOf(DEVICE_BELOW_TARGET_FIELDS);
export const DEVICE_BELOW_TARGET_CSV_COLUMNS = csvColumnsOf(DEVICE_BELOW_TARGET_FIELDS);
