/**
 * Escalation contacts (docs/api.md#escalation-contacts; issue 32 point 3, issue 31 point 9) over the REAL account
 * handler on dynoxide behind the rules proxy (IAM evaluated on every call):
 *  - a customer of acme saves a list (version 0 → 1), reads it back; the audit row carries the diff summary;
 *  - a stale version → 409 VERSION_CONFLICT (`details.currentVersion`), nothing written;
 *  - bad input (phone not E.164, unknown time zone, from = to, empty severities, 21 contacts) → 400
 *    VALIDATION_FAILED naming the field, nothing written; an overnight range (to before from) is accepted;
 *  - roles: only the tenant's customer admin saves (an operator or a viewer → 403 ROLE_REQUIRED, nothing
 *    written); a viewer reads;
 *  - tenant isolation: globex never sees acme's list, even asking `?tenant=acme`; staff (TOTP) read and write any
 *    tenant's, staff without TOTP get 403 MFA_REQUIRED;
 *  - cost: a read is ONE GetItem, a save ONE GetItem + ONE TransactWriteItems (captureCapacity).
 */
import { describe, expect, it } from 'vitest';
import type { EscalationContact, EscalationContacts } from '../../lambdas/contract/escalation-contacts.js';
import { buildPath, ROUTES, type OperationId, type RouteDef } from '../../lambdas/contract/routes.js';
import { bodyOf, type CallerSpec } from '../support/events.js';
import { useExampleApi } from '../support/example-api.js';
import { call } from '../support/in-process-api.js';
import { captureCapacity, type CapturedRequest } from '../support/capacity-capture.js';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { escalationContactsRepository } from '../../lambdas/data/escalation-contacts.js';
import { getEscalationContacts, putEscalationContacts } from '../../lambdas/domain/escalation-contacts.js';

/** Acme's customer admin: the list is kept by the customer's admin (`minRole: 'admin'`, issue 32 point 3). */
const ana: CallerSpec = { sub: 'u-ana', email: 'ana@acme.example', groups: ['acme', 'customer-admin'] };
const acmeOperator: CallerSpec = { sub: 'u-op', email: 'olga@acme.example', groups: ['acme'] };
const acmeViewer: CallerSpec = { sub: 'u-vw', email: 'victor@acme.example', groups: ['acme', 'customer-viewer'] };
const globex: CallerSpec = { sub: 'u-gx', email: 'eva@globex.example', groups: ['globex'] };
const staff: CallerSpec = { sub: 'u-soc', email: 'soc@vigia.example', groups: ['admin'] };
const staffWithoutTotp: CallerSpec = { ...staff, sub: 'u-soc2', mfa: false };

const ctx = useExampleApi({ table: 'vigia-escalation-contacts' });
const row = (op: OperationId): RouteDef => ROUTES.find((r) => r.operationId === op)!;
const send = (op: OperationId, caller: CallerSpec, query: Record<string, string> = {}, body?: unknown) =>
  call(ctx.handlers[row(op).handler], { method: row(op).method, path: buildPath(row(op).path, {}), query, caller, ...(body !== undefined ? { body } : {}) });
const get = (caller: CallerSpec, query: Record<string, string> = {}) => send('getEscalationContacts', caller, query);
const put = (caller: CallerSpec, body: unknown, query: Record<string, string> = {}) => send('putEscalationContacts', caller, query, body);

const marta: EscalationContact = { name: 'Marta Ruiz', role: 'CISO', phone: '+34911234567', email: 'marta@acme.example', severities: ['critical', 'high'], hours: '24x7' };
const jorge: EscalationContact = {
  name: 'Jorge Gil',
  phone: '+34600111222',
  email: 'jorge@acme.example',
  severities: ['medium'],
  hours: { days: ['fri'], from: '22:00', to: '06:00', timeZone: 'Europe/Madrid' },
  notes: 'Guardia nocturna',
};

describe('escalation contacts', () => {
  it('only the customer admin saves: operator and viewer get 403 ROLE_REQUIRED and nothing is written; a viewer reads', async () => {
    for (const caller of [acmeOperator, acmeViewer]) {
      const r = await put(caller, { version: 0, contacts: [marta] }, { tenant: 'acme' });
      expect(r.statusCode, r.body).toBe(403);
      expect(bodyOf<{ code: string; details: { required: string } }>(r)).toMatchObject({ code: 'ROLE_REQUIRED', details: { required: 'admin' } });
    }
    const read = await get(acmeViewer);
    expect(read.statusCode, read.body).toBe(200);
    expect(bodyOf<EscalationContacts>(read).version).toBe(0);
  });

  it('a customer saves the list (version 0 → 1, overnight range accepted) and reads it back; the audit row has the diff summary', async () => {
    expect(bodyOf<EscalationContacts>(await get(ana))).toMatchObject({ tenantId: 'acme', version: 0, contacts: [] });
    const saved = await put(ana, { version: 0, contacts: [marta, jorge] });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(bodyOf<EscalationContacts>(saved)).toMatchObject({ version: 1, contacts: [marta, jorge], updatedBy: 'ana@acme.example' });
    expect(bodyOf<EscalationContacts>(await get(ana))).toMatchObject({ version: 1, contacts: [marta, jorge] });
    const audit = bodyOf<{ items: Array<{ action: string; after?: Record<string, unknown> }> }>(await send('listAuditLog', ana, { action: 'escalation_contacts.update' }));
    expect(audit.items[0]).toMatchObject({ action: 'escalation_contacts.update', after: { version: 1, count: 2, added: ['Marta Ruiz', 'Jorge Gil'], removed: [], changed: [] } });
  });

  it('a stale version answers 409 VERSION_CONFLICT with the current version, nothing written', async () => {
    const before = await ctx.snapshot();
    const r = await put(ana, { version: 0, contacts: [jorge] });
    expect(r.statusCode, r.body).toBe(409);
    expect(bodyOf(r)).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 1 } });
    expect(await ctx.snapshot()).toEqual(before);
  });

  it.each([
    ['a phone not in E.164', { ...marta, phone: '911 23 45 67' }, 'phone'],
    ['an unknown time zone', { ...jorge, hours: { days: ['mon'], from: '09:00', to: '18:00', timeZone: 'Europe/Atlantis' } }, 'timeZone'],
    ['from equal to to', { ...jorge, hours: { days: ['mon'], from: '09:00', to: '09:00', timeZone: 'Europe/Madrid' } }, 'to'],
    ['empty severities', { ...marta, severities: [] }, 'severities'],
  ])('%s → 400 VALIDATION_FAILED on the field, nothing written', async (_what, contact, field) => {
    const before = await ctx.snapshot();
    const r = await put(ana, { version: 1, contacts: [contact] });
    expect(r.statusCode, r.body).toBe(400);
    const body = bodyOf<{ code: string; details: unknown }>(r);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(body.details)).toContain(`contacts.0.`);
    expect(JSON.stringify(body.details)).toContain(field);
    expect(await ctx.snapshot()).toEqual(before);
  });

  it('21 contacts → 400 on body.contacts, nothing written; 20 are saved', async () => {
    const before = await ctx.snapshot();
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ ...marta, name: `Contacto ${i + 1}` }));
    const r = await put(ana, { version: 1, contacts: many(21) });
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('contacts');
    expect(await ctx.snapshot()).toEqual(before);
    const ok = await put(ana, { version: 1, contacts: many(20) });
    expect(ok.statusCode, ok.body).toBe(200);
    const back = await put(ana, { version: 2, contacts: [marta, jorge] });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('another tenant never sees acme\'s list; staff with TOTP read and write any tenant; staff without TOTP get 403', async () => {
    expect(bodyOf<EscalationContacts>(await get(globex))).toMatchObject({ tenantId: 'globex', version: 0, contacts: [] });
    const asked = await get(globex, { tenant: 'acme' });
    expect(asked.statusCode).toBe(403);
    expect(asked.body).not.toContain('Marta');
    const staffRead = await get(staff, { tenant: 'acme' });
    expect(bodyOf<EscalationContacts>(staffRead)).toMatchObject({ tenantId: 'acme', version: 3, contacts: [marta, jorge] });
    const staffWrite = await put(staff, { version: 0, contacts: [{ ...marta, email: 'marta@globex.example' }] }, { tenant: 'globex' });
    expect(staffWrite.statusCode, staffWrite.body).toBe(200);
    expect(bodyOf<EscalationContacts>(await get(globex)).contacts[0]?.email).toBe('marta@globex.example');
    expect(bodyOf<EscalationContacts>(await get(ana)).contacts.map((c) => c.email)).toEqual(['marta@acme.example', 'jorge@acme.example']);
    const noTotp = await get(staffWithoutTotp, { tenant: 'acme' });
    expect(noTotp.statusCode).toBe(403);
    expect(bodyOf(noTotp)).toMatchObject({ code: 'MFA_REQUIRED' });
  });

  it('a read is ONE GetItem (1 RCU); a save ONE GetItem and ONE TransactWriteItems (list + audit entry)', async () => {
    const table: TableRef = { doc: createDocumentClient(ctx.api.documentClientOptions()), tableName: 'vigia-escalation-contacts' };
    const ops: CapturedRequest[] = [];
    captureCapacity(table, ops);
    const store = escalationContactsRepository(table);
    try {
      const list = await getEscalationContacts(store, 'acme');
      const read = [...ops];
      ops.length = 0;
      const many = Array.from({ length: 20 }, (_, i) => ({ ...marta, name: `Contacto ${i + 1}`, notes: 'x'.repeat(500) }));
      await putEscalationContacts(store, 'acme', { version: list.version, contacts: many }, { identity: { sub: 'u-ana', email: 'ana@acme.example', groups: ['acme'] } as never, requestId: 'r-1', sourceIp: '127.0.0.1', now: new Date() });
      const save = [...ops];
      console.log('escalation contacts capacity', JSON.stringify({ read, save }));
      expect(read.map((c) => c.op)).toEqual(['GetItem']);
      expect(read[0]!.rcu).toBeLessThanOrEqual(1);
      expect(save.map((c) => c.op)).toEqual(['GetItem', 'TransactWriteItems']);
    } finally {
      table.doc.destroy();
    }
  });
});
