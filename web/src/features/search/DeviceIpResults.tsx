/**
 * The "Dispositivos por IP" section of the search page, shown when the text looks like an IP address or its
 * start (`isIpSearch`): the tenant's devices at that address or under that prefix (`GET /devices?ip=`, one
 * index Query a page, docs/data-model.md#search), ordered by address; "Cargar más" follows the cursor.
 */
import { Link } from 'react-router-dom';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { t as msg } from '../../shared/lib/messages';
import { DeviceStatusBadge } from '../../shared/ui/badges';
import { ResultsSection } from './ResultsSection';

/** Whether `q` is searched as an IP address: 2–45 of hex digits, `.` and `:` (the API's rule) with a digit and a `.` or `:`. */
export function isIpSearch(q: string): boolean {
  return /^[0-9A-Fa-f.:]{2,45}$/.test(q) && /\d/.test(q) && /[.:]/.test(q);
}

export function DeviceIpResults({ q, tenant, pageSize }: { q: string; tenant: { tenant?: string }; pageSize: number }) {
  const devices = useApiSWRInfinite('listDevices', { query: { ...tenant, ip: q, limit: pageSize } });
  return (
    <ResultsSection id="sr-device-ips" title={msg('search.results.devicesByIp')} hint={msg('search.results.devicesByIpHint')} list={devices} empty={msg('search.results.noDeviceIpMatches')}>
      {devices.items.map((d) => (
        <li key={d.id}>
          <Link to={`/devices/availability?device=${encodeURIComponent(d.id)}`}>
            {d.ipAddress} · {d.name}
          </Link>
          <span className="feed-meta">
            <DeviceStatusBadge status={d.status} /> {d.site}
          </span>
        </li>
      ))}
    </ResultsSection>
  );
}
