/**
 * `peopleOf` (docs/portal.md#audit-log): the audit page names people by e-mail, also in entries written before the
 * e-mail was stored with them, from what the loaded entries themselves say (no lookup).
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/lib/contract';
import { peopleOf } from './AuditLogPage';
import { anAuditEntry } from '../../shared/lib/test-utils';

/** A staff member's entry on a user (`user.disable` of `u-1`); `over` replaces any field. */
const entry = (over: Partial<AuditEntry>): AuditEntry =>
  anAuditEntry({ actor: { sub: 'staff-1', email: 'soc@vigia.example' }, action: 'user.disable', target: { type: 'user', id: 'u-1' }, ...over });

describe('peopleOf', () => {
  it('names a user by the stored name, else by its invitation or access request e-mail, and actors by their e-mail', () => {
    const people = peopleOf([
      entry({ target: { type: 'user', id: 'u-1' } }),
      entry({ action: 'user.invite', target: { type: 'user', id: 'u-1' }, after: { email: 'ana@acme.example', group: 'acme' } }),
      entry({ action: 'access_request.grant', target: { type: 'user', id: 'u-2', name: 'bob@example.com' } }),
      entry({ action: 'tenant.update', target: { type: 'tenant', id: 'acme' }, after: { email: 'not-a-person@acme.example' } }),
      entry({ action: 'user.access_request', actor: { sub: 'u-3' }, target: { type: 'user', id: 'u-3' }, after: { email: 'eve@example.com' } }),
    ]);
    expect(people.get('u-1')).toBe('ana@acme.example');
    expect(people.get('u-2')).toBe('bob@example.com');
    expect(people.get('u-3')).toBe('eve@example.com');
    expect(people.get('staff-1')).toBe('soc@vigia.example');
    expect(people.has('acme')).toBe(false);
  });
});
