/**
 * Client-side validation of the new-incident form with the API's own schema (`CreateIncidentBody`:
 * title 3–120 chars, description 1–5000, severity one of SEVERITIES, category 1–60, default
 * "general"), turning zod issues into messages per field (portal language).
 */
import { CreateIncidentBody } from '../../shared/lib/contract';
import type { Severity } from '../../shared/lib/contract';
import { t as msg } from '../../shared/lib/messages';

export interface IncidentFormValues {
  title: string;
  description: string;
  /** '' until the user picks one. */
  severity: Severity | '';
  /** Optional; '' means the API default ("general"). */
  category: string;
}

export type IncidentFormField = keyof IncidentFormValues;
export type IncidentFormErrors = Partial<Record<IncidentFormField, string>>;

/** The message of each field's failure in the portal's language (getters: read at validation time, docs/portal.md#messages). */
const MESSAGES: Record<IncidentFormField, { tooSmall: string; tooBig: string; invalid: string }> = {
  title: {
    get tooSmall() { return msg('incidents.validation.titleTooShort'); },
    get tooBig() { return msg('incidents.validation.titleTooLong'); },
    get invalid() { return msg('incidents.validation.enterATitle'); },
  },
  description: {
    get tooSmall() { return msg('incidents.validation.describeTheIncident'); },
    get tooBig() { return msg('incidents.validation.descriptionTooLong'); },
    get invalid() { return msg('incidents.validation.describeTheIncident'); },
  },
  severity: {
    get tooSmall() { return msg('incidents.validation.selectASeverity'); },
    get tooBig() { return msg('incidents.validation.selectASeverity'); },
    get invalid() { return msg('incidents.validation.selectASeverity'); },
  },
  category: {
    get tooSmall() { return msg('incidents.validation.categoryBlank'); },
    get tooBig() { return msg('incidents.validation.categoryTooLong'); },
    get invalid() { return msg('incidents.validation.invalidCategory'); },
  },
};

/**
 * @returns `{ ok: true, body }` ready for `POST /incidents`, or `{ ok: false, errors }` with one
 *   message per invalid field, in the portal's language.
 */
export function validateIncidentForm(
  values: IncidentFormValues,
): { ok: true; body: CreateIncidentBody } | { ok: false; errors: IncidentFormErrors } {
  const input: Record<string, unknown> = {
    title: values.title,
    description: values.description,
    severity: values.severity || undefined,
  };
  if (values.category.trim() !== '') input.category = values.category;
  const parsed = CreateIncidentBody.safeParse(input);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: IncidentFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as IncidentFormField;
    if (!(field in MESSAGES) || errors[field]) continue;
    const m = MESSAGES[field];
    errors[field] = issue.code === 'too_small' ? m.tooSmall : issue.code === 'too_big' ? m.tooBig : m.invalid;
  }
  return { ok: false, errors };
}
