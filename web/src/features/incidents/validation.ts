/**
 * Client-side validation of the new-incident form with the API's own schema (`CreateIncidentBody`:
 * title 3–120 chars, description 1–5000, severity one of SEVERITIES, category 1–60, default
 * "general"), turning zod issues into Spanish messages per field.
 */
import { CreateIncidentBody } from '../../shared/lib/contract';
import type { Severity } from '../../shared/lib/contract';

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

const MESSAGES: Record<IncidentFormField, { tooSmall: string; tooBig: string; invalid: string }> = {
  title: {
    tooSmall: 'El título debe tener al menos 3 caracteres.',
    tooBig: 'El título no puede superar los 120 caracteres.',
    invalid: 'Escribe un título.',
  },
  description: {
    tooSmall: 'Describe el incidente.',
    tooBig: 'La descripción no puede superar los 5000 caracteres.',
    invalid: 'Describe el incidente.',
  },
  severity: { tooSmall: 'Selecciona una severidad.', tooBig: 'Selecciona una severidad.', invalid: 'Selecciona una severidad.' },
  category: {
    tooSmall: 'Escribe una categoría o deja el campo vacío.',
    tooBig: 'La categoría no puede superar los 60 caracteres.',
    invalid: 'Categoría no válida.',
  },
};

/**
 * @returns `{ ok: true, body }` ready for `POST /incidents`, or `{ ok: false, errors }` with one
 *   Spanish message per invalid field.
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
