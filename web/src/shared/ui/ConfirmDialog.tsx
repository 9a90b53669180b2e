/**
 * The portal's confirmation prompt before an irreversible or bulk action (the administration screens' user
 * actions, the SOC queue's bulk work; docs/portal.md): a modal `alertdialog` (WAI-ARIA APG "Alert and Message
 * Dialogs"), in the portal's language.
 *
 * - `useConfirm()` returns `[dialog, ask]`: render `dialog`; `ask(prompt)` opens it and resolves `true` when
 *   the confirm button is pressed, `false` on "Cancelar", Escape or a click on the backdrop.
 * - Focus moves to "Cancelar" on opening (the safe choice), Tab/Shift+Tab stay inside the dialog, and focus
 *   returns to the element that opened it on closing.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import './confirm.css';
import { t as msg } from '../lib/messages';

/** What the dialog shows. */
export interface ConfirmPrompt {
  title: string;
  body: string;
  confirmLabel: string;
}

interface Open {
  prompt: ConfirmPrompt;
  resolve: (ok: boolean) => void;
  opener: Element | null;
}

/** See the module doc. */
export function useConfirm(): [ReactNode, (prompt: ConfirmPrompt) => Promise<boolean>] {
  const [open, setOpen] = useState<Open | null>(null);
  const ask = useCallback(
    (prompt: ConfirmPrompt) => new Promise<boolean>((resolve) => setOpen({ prompt, resolve, opener: document.activeElement })),
    [],
  );
  const close = useCallback(
    (ok: boolean) => {
      if (!open) return;
      open.resolve(ok);
      setOpen(null);
      if (open.opener instanceof HTMLElement) open.opener.focus();
    },
    [open],
  );
  return [open ? <ConfirmDialog prompt={open.prompt} onClose={close} /> : null, ask];
}

function ConfirmDialog({ prompt, onClose }: { prompt: ConfirmPrompt; onClose: (ok: boolean) => void }) {
  const id = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => cancelRef.current?.focus(), []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose(false);
    } else if (e.key === 'Tab') {
      // Two buttons: Tab from the last goes to the first and Shift+Tab from the first to the last.
      const [first, last] = [cancelRef.current, confirmRef.current];
      if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first?.focus();
      } else if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last?.focus();
      }
    }
  };
  return (
    <div className="confirm-backdrop" onClick={(e) => e.target === e.currentTarget && onClose(false)}>
      <div className="confirm-dialog" role="alertdialog" aria-modal="true" aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`} onKeyDown={onKeyDown}>
        <h2 id={`${id}-title`}>{prompt.title}</h2>
        <p id={`${id}-body`}>{prompt.body}</p>
        <div className="form-actions">
          <button ref={cancelRef} type="button" className="btn" onClick={() => onClose(false)}>
            {msg('actions.cancel')}
          </button>
          <button ref={confirmRef} type="button" className="btn btn-primary" onClick={() => onClose(true)}>
            {prompt.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
