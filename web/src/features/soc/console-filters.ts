/**
 * Alarm console filters (`/soc/alarms`) ⇄ URL search parameters ⇄ `GET /soc/alarms` query (`AlarmConsoleQuery`
 * in `lambdas/contract/schemas.ts`, docs/api.md#alarm-console).
 *
 * URL form (shareable; unset filters left out): `tenant`, `severity`, `state` (`open`/`acknowledged`/`cleared`)
 * and `kind` (`device`/`office365`), one value each — every combination is one index partition on the server.
 * Unknown values are dropped.
 */
import { ALARM_CONSOLE_KINDS, ALARM_CONSOLE_STATES, SEVERITIES } from '../../shared/lib/contract';
import type { AlarmConsoleQuery } from '../../shared/lib/contract';

/** Page size of the console. */
export const CONSOLE_PAGE_SIZE = 25;

const oneOf = (list: readonly string[], v: string | null): v is string => v !== null && list.includes(v);

/** The `listAlarmConsole` query of the URL (see the module docstring). */
export function consoleQuery(params: URLSearchParams): AlarmConsoleQuery {
  const q: AlarmConsoleQuery = { limit: CONSOLE_PAGE_SIZE };
  const tenant = params.get('tenant');
  const severity = params.get('severity');
  const state = params.get('state');
  const kind = params.get('kind');
  if (tenant && /^[a-z0-9][a-z0-9-]{1,62}$/.test(tenant)) q.tenant = tenant;
  if (oneOf(SEVERITIES, severity)) q.severity = severity as AlarmConsoleQuery['severity'];
  if (oneOf(ALARM_CONSOLE_STATES, state)) q.state = state as AlarmConsoleQuery['state'];
  if (oneOf(ALARM_CONSOLE_KINDS, kind)) q.kind = kind as AlarmConsoleQuery['kind'];
  return q;
}
