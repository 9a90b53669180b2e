/**
 * The confirmation prompt of the administration screens' irreversible or access-removing user actions
 * (disable, remove from a customer, revoke staff, reset MFA; docs/portal.md#administration): a modal
 * `alertdialog` (WAI-ARIA APG "Alert and Message Dialogs") that names the user, in the portal's language.
 *
 * - `useConfirm()` returns `[dialog, ask]`: render `dialog`; `ask(prompt)` opens it and resolves `true` when
 *   the confirm button is pressed, `false` on "Cancelar", Escape or a click on the backdrop.
 * - Focus moves to "Cancelar" on opening (the safe choice), Tab/Shift+Tab stay inside the dialog, and focus
 *   returns to the element that opened it (the row's button) on closing.
 * - `confirmTexts(action, who)` holds the prompts' texts: title, what happens, confirm button label.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import './confirm.css';
import { t as msg } from '../../shared/lib/messages';

/** The user actions that ask first. */
export type ConfirmAction = 'disable' | 'remove' | 'revokeStaff' | 'resetMfa' | 'dismissAccessRequest';

/** What the dialog shows. */
export interface ConfirmPrompt {
  title: string;
  body: string;
  confirmLabel: string;
}

/** The prompt (in the portal's language) of `action` on user `who` (its e-mail, else its username); `tenantName` for `remove`. */
export function confirmTexts(action: ConfirmAction, who: string, tenantName?: string): ConfirmPrompt {
  switch (action) {
    case 'disable':
      return {
        title: msg('admin.confirmDialog.disable', { who }),
        body: msg('admin.confirmDialog.willNotBeAble', { who }),
        confirmLabel: msg('admin.confirmDialog.disable2'),
      };
    case 'remove':
      return {
        title: msg('admin.confirmDialog.removeFromTheCustomer', { who, v1: tenantName ? ` ${tenantName}` : '' }),
        body: msg('admin.confirmDialog.willNoLongerSeeThis', { who }),
        confirmLabel: msg('admin.confirmDialog.removeFromCustomer'),
      };
    case 'revokeStaff':
      return {
        title: msg('admin.confirmDialog.revokeSocAccessFrom', { who }),
        body: msg('admin.confirmDialog.willNoLongerSeeThe', { who }),
        confirmLabel: msg('admin.confirmDialog.revokeSocAccess'),
      };
    case 'dismissAccessRequest':
      return {
        title: msg('admin.confirmDialog.dismissAccessRequestOf', { who }),
        body: msg('admin.confirmDialog.dismissAccessRequestBody', { who }),
        confirmLabel: msg('admin.accessRequests.dismiss'),
      };
    case 'resetMfa':
      return {
        title: msg('admin.confirmDialog.resetTheMfaOf', { who }),
        body: msg('admin.confirmDialog.theirAuthenticatorAppWill', { who }),
        confirmLabel: msg('admin.confirmDialog.resetMfa'),
      };
  }
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
            {msg('admin.confirmDialog.cancel')}
          </button>
          <button ref={confirmRef} type="button" className="btn btn-primary" onClick={() => onClose(true)}>
            {prompt.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
