/**
 * The escalation contacts form's state and its checks (docs/api.md#escalation-contacts, docs/portal.md#escalation-contacts).
 * A draft is what the form edits: every field a string or a list, hours split into "always" or days + times + zone.
 * `contactOf` turns a draft into the contract's `EscalationContact`; `draftErrors` checks the whole list with the
 * contract's own schema (`PutEscalationContactsBody`, the same zod schema the API validates with), so the form and
 * the API never disagree; `apiErrors` maps the API's 400 details (`body.contacts.<i>.<field>`) onto the same keys.
 * Error keys are `<index>.<field>` (`0.phone`, `2.days`), or `form`.
 */
import { PutEscalationContactsBody, type EscalationContact, type Severity, type Weekday } from '../../shared/lib/contract';
import { formErrorsOf, withReference } from '../../shared/lib/form-errors';
import { t as msg, type MessageKey } from '../../shared/lib/messages';

/** One contact as the form holds it; `key` is a stable React key for the row (not sent). */
export interface ContactDraft {
  key: string;
  name: string;
  role: string;
  phone: string;
  email: string;
  severities: Severity[];
  /** true: `'24x7'`; false: `days` from `from` to `to` (HH:MM) in `timeZone` (IANA). */
  always: boolean;
  days: Weekday[];
  from: string;
  to: string;
  timeZone: string;
  notes: string;
}

/** Form errors: `<index>.<field>` → text, and `form` for what belongs to no field. */
export type DraftErrors = Partial<Record<string, string>> & { form?: string };

let seq = 0;
const nextKey = () => `c${++seq}`;

/** The browser's IANA time zone (`Europe/Madrid`), the default of a new contact's hours; UTC when unknown. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** A new empty contact: called for critical and high incidents, office hours Monday–Friday 09:00–18:00 in `timeZone`. */
export function blankDraft(timeZone: string = browserTimeZone()): ContactDraft {
  return { key: nextKey(), name: '', role: '', phone: '', email: '', severities: ['critical', 'high'], always: false, days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00', timeZone, notes: '' };
}

/** The draft of a saved contact. */
export function draftOf(c: EscalationContact): ContactDraft {
  const base = { key: nextKey(), name: c.name, role: c.role ?? '', phone: c.phone, email: c.email, severities: [...c.severities], notes: c.notes ?? '' };
  if (c.hours === '24x7') return { ...base, always: true, days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00', timeZone: browserTimeZone() };
  return { ...base, always: false, days: [...c.hours.days], from: c.hours.from, to: c.hours.to, timeZone: c.hours.timeZone };
}

/** The contract's contact of a draft (trimmed; empty role and notes left out). */
export function contactOf(d: ContactDraft): EscalationContact {
  const role = d.role.trim();
  const notes = d.notes.trim();
  return {
    name: d.name.trim(),
    ...(role ? { role } : {}),
    phone: d.phone.replace(/[\s().-]/g, ''),
    email: d.email.trim(),
    severities: d.severities,
    hours: d.always ? '24x7' : { days: d.days, from: d.from, to: d.to, timeZone: d.timeZone },
    ...(notes ? { notes } : {}),
  };
}

/** The text of a problem with `field` (the form's words, not zod's); null: zod's own message. */
function fieldText(field: string, sub: string | undefined): string | null {
  const key: Partial<Record<string, MessageKey>> = {
    name: 'escalation.contact.required',
    phone: 'escalation.contact.badPhone',
    email: 'escalation.contact.badEmail',
    severities: 'escalation.contact.noSeverity',
    days: 'escalation.contact.noDay',
    to: 'escalation.contact.sameTimes',
  };
  const k = key[field === 'hours' ? (sub ?? '') : field];
  return k ? msg(k) : null;
}

/** The form key of a path inside the body (`['contacts', 0, 'hours', 'days', 1]` → `0.days`), or null. */
function keyOfPath(path: readonly PropertyKey[]): { key: string; field: string; sub?: string } | null {
  if (path[0] !== 'contacts' || typeof path[1] !== 'number' || typeof path[2] !== 'string') return null;
  const sub = typeof path[3] === 'string' ? path[3] : undefined;
  const field = path[2] === 'hours' && sub ? sub : path[2];
  return { key: `${path[1]}.${field}`, field: path[2], ...(sub ? { sub } : {}) };
}

/** The problems of `drafts` by the contract's schema (empty: the list can be saved). */
export function draftErrors(drafts: readonly ContactDraft[], version: number): DraftErrors {
  const parsed = PutEscalationContactsBody.safeParse({ version, contacts: drafts.map(contactOf) });
  if (parsed.success) return {};
  const out: DraftErrors = {};
  for (const issue of parsed.error.issues) {
    const at = keyOfPath(issue.path);
    if (at) out[at.key] ??= fieldText(at.field, at.sub) ?? issue.message;
    else out.form ??= issue.message;
  }
  return out;
}

/** The API's answer to a failed save as form errors (400 details by field; anything else on the form): `formErrorsOf`. */
export function apiErrors(err: unknown): DraftErrors {
  return formErrorsOf<string>(err, {
    fieldOf: (path) => keyOfPath(path)?.key,
    fieldText: (_key, path, message) => {
      const at = keyOfPath(path)!;
      return fieldText(at.field, at.sub) ?? message;
    },
    formText: (message, id) => msg('escalation.page.couldNotSave', { message: withReference(message, id) }),
  });
}

/** `list` with the item at `from` moved to `to` (both in range; otherwise `list` unchanged). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item!);
  return out;
}

/** The IANA zones offered in the time zone list: the runtime's own (`Intl.supportedValuesOf`), with `current` always in it. */
export function timeZones(current: string): string[] {
  let zones: string[];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  return zones.includes(current) ? zones : [current, ...zones];
}
