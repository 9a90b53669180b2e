/** Severity of an activity event as a badge (`info` in grey); shared by the bell's panel and the feed page. */
import type { ActivityEvent } from '../../shared/lib/contract';
import { SEVERITY_LABELS } from '../../shared/lib/format';
import { t as msg } from '../../shared/lib/messages';
import { Badge } from '../../shared/ui/states';

export function ActivitySeverityBadge({ severity }: { severity: ActivityEvent['severity'] }) {
  return <Badge tone={severity === 'info' ? 'st-closed' : `sev-${severity}`}>{severity === 'info' ? msg('enums.activitySeverity.info') : SEVERITY_LABELS[severity]}</Badge>;
}
