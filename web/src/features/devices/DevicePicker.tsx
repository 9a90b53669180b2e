/**
 * The device filter of the device screens (availability, alarms): a search box — the start of a device's
 * name, ignoring case and accents — and a list of the matching devices, one server page at a time
 * (`useDeviceSearch`: `GET /devices?prefix=…&limit=10`, one Query). Typing narrows the list on the server,
 * so every device is reachable at any fleet size; nothing reads the whole fleet. The chosen device stays
 * offered (labelled `selectedName`, else its id) while the search shows others.
 */
import { useEffect, useId, useState } from 'react';
import { t as msg } from '../../shared/lib/messages';
import { PICKER_SIZE, useDeviceSearch } from './api';

/** Time the search waits after the last keystroke before asking the server, ms. */
export const PICKER_DEBOUNCE_MS = 250;

export function DevicePicker({
  id,
  label,
  value,
  selectedName,
  onChange,
  allLabel = null,
}: {
  /** Id of the `<select>` of matches (its label is `label`). */
  id: string;
  label: string;
  /** The chosen device id ('' = none, or all when `allLabel` is given). */
  value: string;
  /** Display name of the chosen device when known. */
  selectedName?: string | null | undefined;
  onChange: (deviceId: string) => void;
  /** The "every device" choice (value ''), or null for none. */
  allLabel?: string | null;
}) {
  const [text, setText] = useState('');
  const [prefix, setPrefix] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setPrefix(text.trim()), PICKER_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  const search = useDeviceSearch(prefix);
  const items = search.data?.items ?? [];
  const hintId = useId();
  const searchId = `${id}-search`;
  const shown = value !== '' && !items.some((d) => d.id === value);
  const hint = !search.data
    ? ''
    : prefix && items.length === 0
      ? msg('devices.picker.noMatch', { q: prefix })
      : prefix
        ? msg('devices.picker.matching', { q: prefix, count: PICKER_SIZE })
        : search.data.nextCursor
          ? msg('devices.picker.firstByName', { count: PICKER_SIZE })
          : '';
  // Two fields and the hint, side by side in the filter grid or toolbar they sit in (the hint on a row of its own).
  return (
    <>
      <div className="field">
        <label htmlFor={searchId}>{msg('devices.picker.search')}</label>
        <input id={searchId} type="search" autoComplete="off" value={text} placeholder={msg('devices.picker.placeholder')} aria-describedby={hint ? hintId : undefined} onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={id}>{label}</label>{' '}
        <select id={id} value={value} aria-busy={search.isLoading || search.isValidating} onChange={(e) => onChange(e.target.value)}>
          {allLabel !== null && <option value="">{allLabel}</option>}
          {shown && <option value={value}>{selectedName ?? value}</option>}
          {items.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name} ({d.site})
            </option>
          ))}
        </select>
      </div>
      {hint && (
        <p id={hintId} className="muted small field-wide" role="status">
          {hint}
        </p>
      )}
    </>
  );
}
