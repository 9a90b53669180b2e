/**
 * The event kinds a user or a webhook receives (the contract's `ACTIVITY_KINDS`, labels from
 * `notifications.kinds.*`): one checkbox per kind. Every kind ticked means `null` ("every kind", also kinds
 * added later), which is what the API stores for it; none ticked is refused by the screens before saving.
 */
import { ACTIVITY_KINDS, type ActivityKind } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';
import { kindLabel } from './notification-settings';

/** The ticked kinds of a stored value (`null` = all). */
export function tickedKinds(kinds: readonly string[] | null): Set<ActivityKind> {
  return new Set(kinds === null ? ACTIVITY_KINDS : ACTIVITY_KINDS.filter((k) => kinds.includes(k)));
}

/** The value to send for the ticked kinds: null when all are ticked. */
export function kindsValue(ticked: ReadonlySet<ActivityKind>): ActivityKind[] | null {
  return ticked.size === ACTIVITY_KINDS.length ? null : ACTIVITY_KINDS.filter((k) => ticked.has(k));
}

export function KindsPicker({ id, ticked, onChange, error }: { id: string; ticked: ReadonlySet<ActivityKind>; onChange: (next: Set<ActivityKind>) => void; error?: string | undefined }) {
  const all = ticked.size === ACTIVITY_KINDS.length;
  const toggle = (k: ActivityKind, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(k);
    else next.delete(k);
    onChange(next);
  };
  return (
    <fieldset className="kinds-picker" aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}>
      <legend>{msg('notifications.kindsPicker.legend')}</legend>
      <p id={`${id}-hint`} className="muted small">
        {msg('notifications.kindsPicker.hint')}
      </p>
      <label className="choice kinds-all">
        <input type="checkbox" checked={all} onChange={(e) => onChange(e.target.checked ? new Set(ACTIVITY_KINDS) : new Set())} /> {msg('notifications.kindsPicker.all')}
      </label>
      <ul className="kinds-list">
        {ACTIVITY_KINDS.map((k) => (
          <li key={k}>
            <label className="choice">
              <input type="checkbox" name={`${id}-kind`} value={k} checked={ticked.has(k)} onChange={(e) => toggle(k, e.target.checked)} /> {kindLabel(k)}
            </label>
          </li>
        ))}
      </ul>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
