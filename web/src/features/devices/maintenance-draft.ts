/**
 * The maintenance window form's draft (docs/portal.md#maintenance-windows): what the reader types — title,
 * devices (ids, chosen by name), sites (comma-separated), start and end as `datetime-local` values in the
 * reader's time zone — and its conversion to the API's body (`POST`/`PUT /maintenance-windows`, instants
 * ISO-8601 UTC). The local checks mirror the API's rules (docs/api.md#maintenance-windows): end after start
 * (WINDOW_ENDS_BEFORE_START), at most `MAX_WINDOW_DAYS` (WINDOW_TOO_LONG), a device or a site; the API's
 * refusals map onto the same fields (`apiWindowErrors`), 409 VERSION_CONFLICT is told apart by the caller.
 */
import { MAX_WINDOW_DAYS, type MaintenanceWindow, type OperationBody } from '../../shared/lib/contract';
import { formErrorsOf, type FormErrors } from '../../shared/lib/form-errors';
import { t as msg } from '../../shared/lib/messages';

/** The form's fields. */
export type WindowField = 'title' | 'scope' | 'startAt' | 'endAt';
export type WindowErrors = FormErrors<WindowField>;

export interface WindowDraft {
  title: string;
  deviceIds: string[];
  /** Sites as typed, comma-separated. */
  sites: string;
  /** `yyyy-mm-ddThh:mm` in the reader's time zone (a `datetime-local` value). */
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** ISO-8601 instant → `yyyy-mm-ddThh:mm` in the reader's (browser's) time zone. */
export function localInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (reader's time zone) → ISO-8601 UTC, or null when it is not a date and time. */
export function instantOf(local: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(local)) return null;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** An empty draft: from the next full hour for two hours. */
export function blankWindow(now: Date = new Date()): WindowDraft {
  const start = new Date(now);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  return { title: '', deviceIds: [], sites: '', start: localInput(start.toISOString()), end: localInput(new Date(start.getTime() + 2 * 3_600_000).toISOString()) };
}

/** The draft of a stored window. */
export function draftOfWindow(w: MaintenanceWindow): WindowDraft {
  return { title: w.title, deviceIds: [...w.scope.deviceIds], sites: w.scope.sites.join(', '), start: localInput(w.startAt), end: localInput(w.endAt) };
}

/** The sites typed: trimmed, empty ones and repeats left out. */
export function sitesOf(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
}

/** The body of `POST /maintenance-windows` for a draft (check it with `windowDraftErrors` first). */
export function windowBodyOf(d: WindowDraft): OperationBody<'createMaintenanceWindow'> {
  return { title: d.title.trim(), scope: { deviceIds: d.deviceIds, sites: sitesOf(d.sites) }, startAt: instantOf(d.start) ?? d.start, endAt: instantOf(d.end) ?? d.end };
}

/** What is wrong with a draft, per field (empty: nothing). Same rules as the API (module doc). */
export function windowDraftErrors(d: WindowDraft): WindowErrors {
  const out: WindowErrors = {};
  const title = d.title.trim();
  if (!title || title.length > 120) out.title = msg('maintenance.form.badTitle');
  if (d.deviceIds.length === 0 && sitesOf(d.sites).length === 0) out.scope = msg('maintenance.form.badScope');
  const start = instantOf(d.start);
  const end = instantOf(d.end);
  if (!start) out.startAt = msg('maintenance.form.badTime');
  if (!end) out.endAt = msg('maintenance.form.badTime');
  else if (start && Date.parse(end) <= Date.parse(start)) out.endAt = msg('maintenance.form.endsBeforeStart');
  else if (start && Date.parse(end) - Date.parse(start) > MAX_WINDOW_DAYS * 86_400_000) out.endAt = msg('maintenance.form.tooLong', { max: MAX_WINDOW_DAYS });
  return out;
}

/** The API's refusal of a window under the form's fields: its own codes in the page's words, the rest as `formErrorsOf`. */
export function apiWindowErrors(err: unknown): WindowErrors {
  return formErrorsOf<WindowField>(err, {
    fieldOf: (path) => (path[0] === 'title' || path[0] === 'startAt' || path[0] === 'endAt' ? path[0] : path[0] === 'scope' ? 'scope' : undefined),
    fieldText: (key, path, message) => (key === 'startAt' && /past/.test(message) ? msg('maintenance.form.startInPast') : message),
    byCode: {
      WINDOW_ENDS_BEFORE_START: () => ({ endAt: msg('maintenance.form.endsBeforeStart') }),
      WINDOW_TOO_LONG: () => ({ endAt: msg('maintenance.form.tooLong', { max: MAX_WINDOW_DAYS }) }),
      UNKNOWN_DEVICE: () => ({ scope: msg('maintenance.form.unknownDevice') }),
    },
  });
}
