/**
 * A button that shows/hides a panel below it (header dropdowns). Closes on Escape (focus returns to
 * the button), on a click outside, and when `closeSignal` changes (e.g. on navigation).
 */
import { useEffect, useId, useRef } from 'react';
import { useStateResetOn } from '../lib/hooks';
import type { ReactNode } from 'react';

export interface DisclosureProps {
  /** Content of the toggle button. */
  label: ReactNode;
  /** Accessible name of the button when `label` is not text (e.g. an icon). */
  ariaLabel?: string;
  buttonClassName?: string;
  panelClassName?: string;
  closeSignal?: unknown;
  children: (close: () => void) => ReactNode;
}

export function Disclosure({ label, ariaLabel, buttonClassName, panelClassName, closeSignal, children }: DisclosureProps) {
  const [open, setOpen] = useStateResetOn(closeSignal, () => false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, setOpen]);

  return (
    <div className="disclosure" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
      </button>
      <div id={panelId} className={`dropdown ${panelClassName ?? ''}`} hidden={!open}>
        {open && children(() => setOpen(false))}
      </div>
    </div>
  );
}
