/**
 * The "Reconocimiento" cell of an Office 365 alert (docs/portal.md#screens): "Reconocer" while the alert is
 * active and nobody at Vigía acknowledged it; afterwards when and who. The acknowledgement is Vigía's own
 * (docs/api.md#acknowledging-office-365-alerts): Microsoft's status shown beside it does not change.
 */
import type { Office365Alarm } from '../../shared/lib/contract';
import { formatDateTime } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';

export function AcknowledgeCell({ alarm, busy, disabled, onAcknowledge }: {
  alarm: Office365Alarm;
  /** This row's acknowledgement is being sent. */
  busy: boolean;
  /** Another row's is (one at a time). */
  disabled: boolean;
  onAcknowledge: (a: Office365Alarm) => void;
}) {
  if (alarm.acknowledgedAt) return <>{msg('office365.pages.acknowledgedOn', { at: formatDateTime(alarm.acknowledgedAt), who: alarm.acknowledgedBy ?? '—' })}</>;
  if (alarm.status !== 'active') return <>—</>;
  return (
    <button type="button" className="btn" disabled={busy || disabled} onClick={() => onAcknowledge(alarm)} aria-label={msg('office365.pages.acknowledgeOf', { title: alarm.title })}>
      {busy ? msg('actions.acknowledging') : msg('actions.acknowledge')}
    </button>
  );
}
