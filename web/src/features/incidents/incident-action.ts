/** The incident page's writes: one action's outcome as a notice; a 409 reloads the incident (docs/portal.md#incident-detail). */
import type { IncidentDetail } from '../../shared/lib/contract';
import { toApiError } from '../../shared/lib/api';
import { t as msg } from '../../shared/lib/messages';

export type Notice = { tone: 'ok' | 'error'; text: string } | null;

/** Runs one write and turns its outcome into a notice; a 409 reloads the incident (the data changed). */
export async function runAction(action: () => Promise<unknown>, okText: string, onDone: (n: Notice) => void, reload: () => void): Promise<boolean> {
  onDone(null);
  try {
    await action();
    onDone({ tone: 'ok', text: okText });
    reload();
    return true;
  } catch (err) {
    const apiErr = toApiError(err);
    if (apiErr.code === 'VERSION_CONFLICT') {
      onDone({ tone: 'error', text: msg('incidents.detail.versionConflict') });
      reload();
    } else if (apiErr.code === 'INVALID_TRANSITION') {
      onDone({ tone: 'error', text: msg('incidents.detail.reloadedAfterError', { userMessage: apiErr.userMessage }) });
      reload();
    } else {
      onDone({ tone: 'error', text: apiErr.userMessage });
    }
    return false;
  }
}

export interface FormProps {
  incident: IncidentDetail;
  onDone: (n: Notice) => void;
  reload: () => void;
}
