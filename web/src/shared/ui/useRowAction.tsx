/**
 * A list's per-row action (acknowledge an alarm, …) and its outcome, shared by the list pages: which row is busy,
 * the notice of the last action (success in `role="status"`, the API's message in `role="alert"`), and `run`,
 * which starts an action on a row, reports its outcome and always reloads the list afterwards (the row may have
 * changed either way). One action at a time: the pages disable every row's button while `busy` is set.
 */
import { useState } from 'react';
import { toApiError } from '../lib/api';

/** The outcome of the last action: `ok` with the success text, or not with the API's user message. */
export interface RowActionNotice {
  ok: boolean;
  text: string;
}

export function useRowAction(list: { mutate: () => Promise<unknown> }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<RowActionNotice | null>(null);
  /** Runs `action` for the row `key`; `success` is the notice when it resolves. Never rejects. */
  const run = async (key: string, action: () => Promise<unknown>, success: string): Promise<void> => {
    setBusy(key);
    setNotice(null);
    try {
      await action();
      setNotice({ ok: true, text: success });
    } catch (err) {
      setNotice({ ok: false, text: toApiError(err).userMessage });
    } finally {
      await list.mutate();
      setBusy(null);
    }
  };
  return { busy, notice, run };
}

/** The notice of `useRowAction` (nothing when there is none). */
export function RowActionNoticeView({ notice }: { notice: RowActionNotice | null }) {
  if (!notice) return null;
  return (
    <div className={notice.ok ? 'notice-ok' : 'error-state'} role={notice.ok ? 'status' : 'alert'}>
      <p>{notice.text}</p>
    </div>
  );
}
