import { describe, expect, it } from 'vitest';
import { filtersError, filtersFromParams, filtersToParams, filtersToQuery, localDayBound, slaLabel } from './filters';
import { INCIDENT_CSV_COLUMNS } from './incident-fields';
import { toCsv } from '../../shared/ui/csv';
import type { Incident } from '../../shared/lib/contract';
import { anIncident } from '../../shared/lib/test-utils';

describe('incident list filters', () => {
  it('reads the URL, dropping unknown enum values and malformed dates', () => {
    const f = filtersFromParams(new URLSearchParams('status=new,bogus,in_progress&severity=high&from=2026-03-01&to=ayer&q=vpn&sort=oldest'));
    expect(f).toEqual({ status: ['new', 'in_progress'], severity: ['high'], from: '2026-03-01', to: '', q: 'vpn', sort: 'oldest' });
    expect(filtersToParams(f).toString()).toBe('status=new%2Cin_progress&severity=high&from=2026-03-01&q=vpn&sort=oldest');
  });

  it('builds the GET /incidents query: local day bounds as UTC instants, newest left to the API default', () => {
    const f = filtersFromParams(new URLSearchParams('severity=critical,low&from=2026-03-01&to=2026-03-31&q= ab '));
    const q = filtersToQuery(f);
    expect(q).toEqual({
      severity: 'critical,low',
      from: new Date(2026, 2, 1, 0, 0, 0, 0).toISOString(),
      to: new Date(2026, 2, 31, 23, 59, 59, 999).toISOString(),
      q: 'ab',
    });
    expect(filtersToQuery(filtersFromParams(new URLSearchParams('sort=oldest')))).toEqual({ sort: 'oldest' });
    expect(Date.parse(localDayBound('2026-03-31', true)) - Date.parse(localDayBound('2026-03-31', false))).toBe(86_399_999);
  });

  it('explains in Spanish the filters the API would refuse', () => {
    expect(filtersError(filtersFromParams(new URLSearchParams('q=a')))).toMatch(/al menos 2 caracteres/);
    expect(filtersError(filtersFromParams(new URLSearchParams('from=2026-04-02&to=2026-04-01')))).toMatch(/posterior/);
    expect(filtersError(filtersFromParams(new URLSearchParams('from=2026-04-01&to=2026-04-01')))).toBeNull();
  });
});

const INC: Incident = anIncident({
  id: 'INC-000007',
  title: '=cmd|calc',
  description: 'd',
  status: 'in_progress',
  category: 'red, perimetral',
  source: 'soc',
  reporter: 'soc@vigia.example',
  updatedAt: '2026-03-01T11:00:00.000Z',
  version: 2,
});

describe('incident CSV and SLA label', () => {
  it('exports Spanish headers and labels, escaping user text', () => {
    const [header, row] = toCsv([INC], INCIDENT_CSV_COLUMNS).split('\r\n');
    expect(header).toBe('ID,Título,Severidad,Estado,Categoría,Origen,Reportado por,Asignado a,Creado (UTC),Actualizado (UTC),Vence SLA (UTC),Resuelto (UTC)');
    expect(row).toBe(`INC-000007,'=cmd|calc,Alta,En curso,"red, perimetral",SOC,soc@vigia.example,,2026-03-01T10:00:00.000Z,2026-03-01T11:00:00.000Z,2026-03-01T18:00:00.000Z,`);
  });

  it('says whether the SLA is due, overdue, met or missed', () => {
    expect(slaLabel(INC, Date.parse('2026-03-01T19:00:00Z'))).toBe('Vencido');
    expect(slaLabel(INC, Date.parse('2026-03-01T12:00:00Z'))).toMatch(/^Vence /);
    expect(slaLabel({ ...INC, resolvedAt: '2026-03-01T17:00:00.000Z' })).toBe('Cumplido');
    expect(slaLabel({ ...INC, resolvedAt: '2026-03-02T17:00:00.000Z' })).toBe('Incumplido');
  });
});
