/**
 * The incident list's read path (lambdas/data/incidents.ts `incidentReadPath`, `listIncidents`): an exact id
 * is one GetItem (filters applied to it), other texts the word index, a status filter the status partitions,
 * else the list — checked on a scripted table (no DynamoDB).
 */
import { describe, expect, it } from 'vitest';
import type { Incident } from '../../../lambdas/contract/schemas.js';
import type { TableRef } from '../../../lambdas/data/table/client.js';
import { IncidentEntity, itemOf } from '../../../lambdas/data/entities.js';
import { incidentReadPath, listIncidents } from '../../../lambdas/data/incidents.js';
import { newIncident } from '../../../lambdas/domain/incidents.js';

const inc = newIncident('acme', 123, { title: 'Fuga de datos', description: 'x', severity: 'high', category: 'c' }, 'ana@acme.example', '2026-03-01T10:00:00.000Z');

function scripted(found: Incident | null): { table: TableRef; ops: string[] } {
  const ops: string[] = [];
  const send = async (op: string) => {
    ops.push(op);
    if (op === 'GetItem') return found ? { Item: itemOf(IncidentEntity, found) } : {};
    if (op === 'BatchGetItem') return { Responses: {} };
    return { Items: [] };
  };
  return { table: { doc: { send, destroy() {} } as unknown as TableRef['doc'], tableName: 't' }, ops };
}

describe('incidentReadPath', () => {
  it('chooses byId, search, byStatus or list', () => {
    expect(incidentReadPath({ q: ' inc-000123 ' })).toEqual({ path: 'byId', id: 'INC-000123' });
    expect(incidentReadPath({ q: 'INC-000123', cursor: 'c' })).toEqual({ path: 'search', q: 'INC-000123' });
    expect(incidentReadPath({ q: 'INC-12', status: ['new'] })).toEqual({ path: 'search', q: 'INC-12' });
    expect(incidentReadPath({ q: '  ', status: ['new'] })).toEqual({ path: 'byStatus', status: ['new'] });
    expect(incidentReadPath({ status: [] })).toEqual({ path: 'list' });
    expect(incidentReadPath({})).toEqual({ path: 'list' });
  });
});

describe('incident search by exact id', () => {
  it('reads the one incident (GetItem) instead of querying the list, any case', async () => {
    const { table, ops } = scripted(inc);
    expect(await listIncidents('acme', { limit: 20, q: ' inc-000123 ' }, table)).toEqual({ items: [inc], nextCursor: null });
    expect(ops).toEqual(['GetItem']);
  });

  it('applies the other filters to it, and answers an empty page for an unknown id', async () => {
    const list = async (found: Incident | null, opts: Record<string, unknown>) => (await listIncidents('acme', { limit: 20, q: 'INC-000123', ...opts }, scripted(found).table)).items;
    expect(await list(inc, { severity: ['low'] })).toEqual([]);
    expect(await list(inc, { status: ['closed'] })).toEqual([]);
    expect(await list(inc, { status: ['new'], severity: ['high'] })).toEqual([inc]);
    expect(await list(inc, { from: '2026-03-01T10:00:00Z' })).toEqual([inc]);
    expect(await list(inc, { to: '2026-03-01T09:59:59Z' })).toEqual([]);
    expect(await list(null, {})).toEqual([]);
  });

  it('other texts (and a short id) still query an index', async () => {
    for (const q of ['INC-12', 'fuga', 'INC-000123 fuga']) {
      const { table, ops } = scripted(inc);
      await listIncidents('acme', { limit: 20, q }, table);
      expect(ops[0]).toBe('Query');
      expect(ops).not.toContain('GetItem');
    }
  });
});
