/** `formErrorsOf`: the one mapping from an API refusal to a form's errors (docs/portal.md#forms). */
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { formErrorsOf, topLevelField, withReference } from './form-errors';

const invalid = (details: unknown) => new ApiError({ kind: 'client', status: 400, code: 'VALIDATION_FAILED', requestId: 'req-1', message: 'invalid body', details });

describe('formErrorsOf', () => {
  it('puts each VALIDATION_FAILED detail under the field its body path names (the first per field), the rest on the form', () => {
    const err = invalid([
      { path: 'body.url', message: 'must be https' },
      { path: 'body.url', message: 'second problem' },
      { path: 'body.name.0', message: 'too long' },
      { path: 'body.other', message: 'unknown key' },
      { path: 'query.limit', message: 'not a body field' },
    ]);
    expect(formErrorsOf(err, { fieldOf: topLevelField(['url', 'name'] as const), formText: (m) => `No se pudo: ${m}` })).toEqual({
      url: 'must be https',
      name: 'too long',
      form: 'No se pudo: unknown key',
    });
  });

  it('gives nested paths with numeric indexes to fieldOf and lets the form word the field text', () => {
    const err = invalid([{ path: 'body.contacts.2.hours.days', message: 'zod text' }]);
    const seen: unknown[] = [];
    const out = formErrorsOf(err, {
      fieldOf: (p) => (seen.push(p), p[0] === 'contacts' && typeof p[1] === 'number' ? `${p[1]}.${String(p[p.length - 1])}` : undefined),
      fieldText: (key) => `Elige un día (${key})`,
    });
    expect(seen).toEqual([['contacts', 2, 'hours', 'days']]);
    expect(out).toEqual({ '2.days': 'Elige un día (2.days)' });
  });

  it('answers mapped codes, and any other refusal as one form error with the request id', () => {
    const inUse = new ApiError({ kind: 'client', status: 409, code: 'IDP_DOMAIN_IN_USE', requestId: 'req-2', message: 'in use', details: { domains: ['acme.example'] } });
    const m = { fieldOf: topLevelField(['emailDomains'] as const), byCode: { IDP_DOMAIN_IN_USE: () => ({ emailDomains: 'ya en uso' }) } };
    expect(formErrorsOf(inUse, m)).toEqual({ emailDomains: 'ya en uso' });
    const server = new ApiError({ kind: 'server', status: 500, code: 'INTERNAL_ERROR', requestId: 'req-3', message: 'boom' });
    expect(formErrorsOf(server, m)).toEqual({ form: withReference(server.userMessage, 'req-3') });
    expect(formErrorsOf(server, m).form).toContain('req-3');
    // A VALIDATION_FAILED without usable details is a form error too (never an empty result).
    expect(formErrorsOf(invalid(null), m).form).toContain('req-1');
  });
});
