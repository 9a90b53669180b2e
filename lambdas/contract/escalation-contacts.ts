/**
 * Contract of a tenant's escalation contacts (`GET`/`PUT /escalation-contacts`; docs/api.md#escalation-contacts):
 * the ordered list of people the SOC calls about the tenant's incidents, who is called for which severities and
 * when they can be reached. Stored as ONE item per tenant with a `version` (docs/data-model.md#escalation-contacts).
 */
import * as z from 'zod';
import { Severity } from './schemas.js';

/**
 * The most contacts a tenant keeps. 20 contacts of the largest accepted size (name 120, role 120, phone 16,
 * e-mail 254, notes 500 characters, 4 severities, 7 days, a 64-character zone) are about 25 KB of item: far
 * below DynamoDB's 400 KB item limit, so the list stays one item read by one GetItem (≤ 7 RCU strongly consistent).
 */
export const MAX_ESCALATION_CONTACTS = 20;

/** The weekdays of a contact's hours, ISO order (Monday first). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Whether `tz` is a time zone the runtime's IANA database knows (`Intl.DateTimeFormat` refuses the others). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** E.164 (ITU-T E.164): `+`, a country code not starting with 0, at most 15 digits in all (7 at least). */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'time must be HH:MM (00:00-23:59)');

/**
 * When a contact can be called, in `timeZone` (an IANA zone): on `days`, from `from` to `to` (local wall-clock
 * times). `to` earlier than `from` is an overnight range that ends on the next day (`fri 22:00-06:00` reaches
 * Saturday 06:00); `from` equal to `to` is refused (an empty or a 24-hour range is ambiguous: use `'24x7'`).
 */
export const EscalationWindow = z
  .strictObject({
    days: z.array(z.enum(WEEKDAYS)).min(1).max(7).refine((d) => new Set(d).size === d.length, 'days must not repeat'),
    from: HHMM,
    to: HHMM,
    timeZone: z.string().min(1).max(64).refine(isTimeZone, 'unknown IANA time zone'),
  })
  .refine((w) => w.from !== w.to, { message: 'from and to must differ (to before from is an overnight range)', path: ['to'] });
export type EscalationWindow = z.infer<typeof EscalationWindow>;

/** One escalation contact. */
export const EscalationContact = z.strictObject({
  name: z.string().trim().min(1).max(120),
  role: z.string().trim().max(120).optional(),
  phone: z.string().regex(E164_PATTERN, 'phone must be E.164, e.g. +34911234567'),
  email: z.email().max(254),
  severities: z.array(Severity).min(1).max(4).refine((s) => new Set(s).size === s.length, 'severities must not repeat'),
  hours: z.union([z.literal('24x7'), EscalationWindow]),
  notes: z.string().max(500).optional(),
});
export type EscalationContact = z.infer<typeof EscalationContact>;

/** Body of `PUT /escalation-contacts`: the whole list (replaces it) and the `version` it was read at. */
export const PutEscalationContactsBody = z.strictObject({
  /** The version read (0 when the tenant never saved a list); a different current version answers 409 VERSION_CONFLICT. */
  version: z.number().int().min(0),
  contacts: z.array(EscalationContact).max(MAX_ESCALATION_CONTACTS),
});
export type PutEscalationContactsBody = z.infer<typeof PutEscalationContactsBody>;

/** A tenant's escalation contacts, in calling order; `version` 0 and no contacts when never saved. */
export const EscalationContacts = z.object({
  tenantId: z.string(),
  version: z.number().int(),
  contacts: z.array(EscalationContact),
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type EscalationContacts = z.infer<typeof EscalationContacts>;
