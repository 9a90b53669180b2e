/**
 * The team page's notices after a write: ok text, or the API error in words — the team's own codes (409
 * LAST_ADMIN, OWN_ACCOUNT, USER_EXISTS, 404 NOT_FOUND; docs/api.md#team-management) get the page's texts, any
 * other the shared message of its code or kind, with the request's reference when there is one.
 */
import { toApiError } from '../../shared/lib/api';
import type { OperationResponse } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';

/** One colleague as `GET /team` answers it. */
export type TeamMember = OperationResponse<'listTeam'>['items'][number];
export type TeamRole = TeamMember['role'];
export const TEAM_ROLES: readonly TeamRole[] = ['viewer', 'operator', 'admin'];

export type Notice = { tone: 'ok' | 'error'; text: string } | null;

const TEAM_CODES = ['LAST_ADMIN', 'OWN_ACCOUNT', 'USER_EXISTS', 'NOT_FOUND'] as const;
type TeamCode = (typeof TEAM_CODES)[number];

/** The error text of a failed team write (see module doc). */
export function teamErrorText(err: unknown): string {
  const e = toApiError(err);
  const text = e.code && (TEAM_CODES as readonly string[]).includes(e.code) ? msg(`team.errors.${e.code as TeamCode}`) : e.userMessage;
  return e.requestId ? msg('team.errors.withReference', { message: text, id: e.requestId }) : text;
}

/** Runs a write; resolves with the ok notice, or the error notice (`teamErrorText`). */
export async function attempt(action: () => Promise<unknown>, ok: string): Promise<Notice> {
  try {
    await action();
    return { tone: 'ok', text: ok };
  } catch (err) {
    return { tone: 'error', text: teamErrorText(err) };
  }
}

/** The member's state in words: disabled, invited (temporary password), active, company account. */
export function memberStatusLabel(m: Pick<TeamMember, 'status' | 'enabled' | 'federated'>): string {
  if (!m.enabled) return msg('enums.userStatus.disabled');
  if (m.federated) return msg('enums.userStatus.federated');
  if (m.status === 'FORCE_CHANGE_PASSWORD') return msg('enums.userStatus.invited');
  if (m.status === 'CONFIRMED') return msg('enums.userStatus.active');
  return msg('enums.userStatus.pending');
}
