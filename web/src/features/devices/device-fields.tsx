/**
 * A device's fields, declared once (docs/portal.md#field-registries): the columns of `/devices/status` and the
 * rows of the device page's details card both come from {@link DEVICE_FIELDS}. Labels are the catalogue's
 * `fields.device.*`; the details card shows its rows in its own order ({@link DEVICE_DETAIL_KEYS}).
 */
import { Link } from 'react-router-dom';
import type { Device } from '../../shared/lib/contract';
import { deviceTypeLabel, formatDateTime, formatPercent } from '../../shared/lib/format';
import { devicePath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { DeviceStatusBadge } from '../../shared/ui/badges';
import { listFieldsOf, type EntityField } from '../../shared/ui/fields';

const when = (iso: string | null) => (iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : '—');

/** Every field of a device the portal shows, in the list's column order. */
export const DEVICE_FIELDS: readonly EntityField<Device>[] = [
  { key: 'name', label: () => msg('fields.device.name'), cell: (d) => <Link to={devicePath(d.id, d.tenantId)}>{d.name}</Link> },
  { key: 'type', label: () => msg('fields.device.type'), cell: (d) => deviceTypeLabel(d.type), detail: (d) => deviceTypeLabel(d.type) },
  { key: 'site', label: () => msg('fields.device.site'), cell: (d) => d.site, detail: (d) => d.site },
  { key: 'status', label: () => msg('fields.device.status'), cell: (d) => <DeviceStatusBadge status={d.status} />, detail: (d) => <DeviceStatusBadge status={d.status} /> },
  { key: 'lastHeartbeat', label: () => msg('fields.device.lastHeartbeat'), cell: (d) => when(d.lastHeartbeatAt), detail: (d) => when(d.lastHeartbeatAt) },
  { key: 'availability30d', label: () => msg('fields.device.availability30d'), numeric: true, cell: (d) => formatPercent(d.availability30d) },
  { key: 'openAlarms', label: () => msg('fields.device.openAlarms'), numeric: true, cell: (d) => d.openAlarms, detail: (d) => d.openAlarms },
  { key: 'ipAddress', label: () => msg('fields.device.ipAddress'), detail: (d) => d.ipAddress },
  {
    key: 'vendorAndModel',
    label: () => msg('fields.device.vendorAndModel'),
    detail: (d) => (
      <>
        {d.vendor} {d.model}
      </>
    ),
  },
];

/** The columns of the device list. */
export const DEVICE_LIST_FIELDS = listFieldsOf(DEVICE_FIELDS);

/** The rows of the device page's details card, in its order (state first, then the inventory). */
export const DEVICE_DETAIL_KEYS = ['status', 'lastHeartbeat', 'type', 'site', 'ipAddress', 'vendorAndModel', 'openAlarms'] as const;
