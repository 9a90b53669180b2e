/** The administration screens' notices: the ok/error line after a write (`attempt`), and Cognito user states in words. */
import type { PoolUser } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import '../../shared/ui/screens.css';
import { t as msg } from '../../shared/lib/messages';

export type Notice = { tone: 'ok' | 'error'; text: string } | null;

export function NoticeBox({ notice }: { notice: Notice }) {
  if (!notice) return null;
  return (
    <div className={notice.tone === 'ok' ? 'notice-ok' : 'error-state'} role={notice.tone === 'ok' ? 'status' : 'alert'}>
      <p>{notice.text}</p>
    </div>
  );
}

/** Runs a write; resolves with an ok/error notice (the API error's message and reference on error). */
export async function attempt(action: () => Promise<unknown>, ok: string): Promise<Notice> {
  try {
    await action();
    return { tone: 'ok', text: ok };
  } catch (err) {
    const e = toApiError(err);
    return { tone: 'error', text: e.requestId ? msg('admin.pages.errorWithReference', { message: e.userMessage, id: e.requestId }) : e.userMessage };
  }
}

/** Cognito user status and enabled flag, in the portal's language. */
export function userStatusLabel(u: Pick<PoolUser, 'status' | 'enabled'>): string {
  if (!u.enabled) return msg('enums.userStatus.disabled');
  switch (u.status) {
    case 'FORCE_CHANGE_PASSWORD':
      return msg('enums.userStatus.invited');
    case 'CONFIRMED':
      return msg('enums.userStatus.active');
    case 'RESET_REQUIRED':
      return msg('enums.userStatus.resetRequired');
    case 'UNCONFIRMED':
      return msg('enums.userStatus.unconfirmed');
    default:
      return u.status;
  }
}
