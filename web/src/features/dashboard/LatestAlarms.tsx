import { Link } from 'react-router-dom';
import type { DeviceAlarm } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { AlarmStateBadge, SeverityBadge } from '../../shared/ui/badges';
import { EmptyState } from '../../shared/ui/states';
import { devicePath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';

/** The dashboard's latest open alarms, each linked to its device; an empty note when there are none. */
export function LatestAlarms({ alarms }: { alarms: DeviceAlarm[] }) {
  if (alarms.length === 0) return <EmptyState>{msg('dashboard.page.noOpenAlarms')}</EmptyState>;
  return (
    <>
      <ul className="feed">
        {alarms.map((a) => (
          <li key={`${a.deviceId}/${a.id}`}>
            <span>
              {/* The device by its name (copied onto the alarm, docs/data-model.md#alarm-device-names); its id for alarms stored before. */}
              {a.title} — <Link to={devicePath(a.deviceId, a.tenantId)}>{a.deviceName ?? a.deviceId}</Link>
            </span>
            <span className="feed-meta">
              <SeverityBadge severity={a.severity} /> <AlarmStateBadge state={a.state} />{' '}
              <time dateTime={a.raisedAt}>{formatDateTime(a.raisedAt)}</time>
            </span>
          </li>
        ))}
      </ul>
      <p className="small">
        <Link to="/devices/alarms">{msg('dashboard.page.viewAllAlarms')}</Link>
      </p>
    </>
  );
}
