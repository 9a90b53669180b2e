/**
 * A tenant's escalation contacts (docs/api.md#escalation-contacts): read by any member of the tenant and by staff
 * for any tenant; replaced whole with the version read (409 VERSION_CONFLICT when it moved), audited
 * `escalation_contacts.update` with a summary of the change (contacts added, removed, changed, by name).
 */
import type { EscalationContact, EscalationContacts, PutEscalationContactsBody } from '../contract/escalation-contacts.js';
import { auditEntryFor, type AuditRequest } from './audit.js';
import { ApiError } from './errors.js';
import type { EscalationContactsPort } from './ports.js';

/** The list a tenant that never saved one has: version 0, no contacts. */
export const emptyEscalationContacts = (tenantId: string): EscalationContacts => ({ tenantId, version: 0, contacts: [], updatedAt: null, updatedBy: null });

/** The tenant's escalation contacts, in calling order (ONE GetItem). */
export async function getEscalationContacts(store: EscalationContactsPort, tenantId: string): Promise<EscalationContacts> {
  return (await store.get(tenantId)) ?? emptyEscalationContacts(tenantId);
}

/**
 * What changed from `before` to `after`, by contact name (the audit summary; phones and e-mails are not copied
 * into the audit log): names added, removed, changed, and whether the order alone moved.
 */
export function escalationDiff(before: readonly EscalationContact[], after: readonly EscalationContact[]) {
  const byName = (l: readonly EscalationContact[]) => new Map(l.map((c) => [c.name, JSON.stringify(c)]));
  const b = byName(before);
  const a = byName(after);
  const added = [...a.keys()].filter((n) => !b.has(n));
  const removed = [...b.keys()].filter((n) => !a.has(n));
  const changed = [...a.keys()].filter((n) => b.has(n) && b.get(n) !== a.get(n));
  const common = (l: readonly EscalationContact[]) => l.map((c) => c.name).filter((n) => a.has(n) && b.has(n)).join('\n');
  return { added, removed, changed, reordered: common(before) !== common(after) };
}

/**
 * Replaces the tenant's list with `body.contacts` when `body.version` is the current version.
 * @throws ApiError VERSION_CONFLICT (`details.currentVersion`) when the list changed since it was read
 */
export async function putEscalationContacts(store: EscalationContactsPort, tenantId: string, body: PutEscalationContactsBody, req: AuditRequest): Promise<EscalationContacts> {
  const current = await getEscalationContacts(store, tenantId);
  const conflict = (v: number) => new ApiError('VERSION_CONFLICT', 'the escalation contacts were changed by someone else; reload them', { currentVersion: v });
  if (current.version !== body.version) throw conflict(current.version);
  const next: EscalationContacts = {
    tenantId,
    version: current.version + 1,
    contacts: body.contacts,
    updatedAt: req.now.toISOString(),
    updatedBy: req.identity.email || req.identity.sub,
  };
  const diff = escalationDiff(current.contacts, next.contacts);
  const audit = auditEntryFor(req, tenantId, 'escalation_contacts.update', { type: 'escalation_contacts', id: tenantId }, {
    before: { version: current.version, count: current.contacts.length },
    after: { version: next.version, count: next.contacts.length, ...diff },
  });
  if (!(await store.replace(next, current.version, audit))) throw conflict((await getEscalationContacts(store, tenantId)).version);
  return next;
}
