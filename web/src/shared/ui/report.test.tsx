import { describe, expect, it } from 'vitest';
import { aReportFigures } from '../lib/test-utils';
import { fleetHealth, formatDuration, periodFromParams, periodQuery, reportToCsv } from './report';

const F = aReportFigures();

describe('report figures', () => {
  it('formats MTTA/MTTR durations', () => {
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(42.4)).toBe('42 min');
    expect(formatDuration(200)).toBe('3 h 20 min');
    expect(formatDuration(120)).toBe('2 h');
    expect(formatDuration(1500)).toBe('1 d 1 h');
  });

  it('gives the fleet availability and the devices below the target (10 listed = "10 or more")', () => {
    expect(fleetHealth(F)).toEqual({ pct: 99.71, below: 2, belowIsAtLeast: false });
    const many = Array.from({ length: 10 }, (_, i) => ({ tenantId: 'acme', deviceId: `d${i}`, name: `d${i}`, availability30d: 90 }));
    expect(fleetHealth({ ...F, availability: { ...F.availability, belowSla: many } })).toEqual({ pct: 99.71, below: 10, belowIsAtLeast: true });
  });

  it('turns the URL into a period: presets (N UTC days ending today, to = now minute-rounded) or whole local days', () => {
    expect(periodFromParams(new URLSearchParams('days=90'))).toEqual({ days: 90, fromDate: '', toDate: '' });
    expect(periodFromParams(new URLSearchParams('days=12&from=2026-03-05&to=2026-03-01'))).toEqual({ days: 30, fromDate: '', toDate: '' });
    const now = Date.parse('2026-03-31T10:20:30.400Z');
    // "7 días" = 7 calendar days: from 00:00 UTC of today − 6 (not 8 partial days from now − 7 × 24 h).
    expect(periodQuery(7, '', '', now)).toEqual({ from: '2026-03-25T00:00:00.000Z', to: '2026-03-31T10:20:00.000Z' });
    expect(periodQuery(365, '', '', now).from).toBe('2025-04-01T00:00:00.000Z');
    expect(periodQuery(30, '', '', Date.parse('2026-03-31T00:00:00.000Z'))).toEqual({ from: '2026-03-02T00:00:00.000Z', to: '2026-03-31T00:00:00.000Z' });
    const custom = periodQuery(30, '2026-03-01', '2026-03-02', now);
    expect(custom.from).toBe(new Date(2026, 2, 1).toISOString());
    expect(Date.parse(custom.to) - Date.parse(custom.from)).toBe(2 * 86_400_000 - 1);
  });

  it('exports every section as CSV with Spanish headers', () => {
    const csv = reportToCsv(F, 'Informe Acme');
    const sections = csv.split('\r\n\r\n');
    expect(sections).toHaveLength(5);
    expect(sections[0]).toContain('Indicador,Valor\r\nInforme,Informe Acme');
    expect(sections[0]).toContain('MTTA (min),42');
    expect(sections[0]).toContain('Cumplimiento SLA (%),50');
    expect(sections[1]).toBe('Severidad,Incidentes\r\nCrítica,1\r\nAlta,2\r\nMedia,0\r\nBaja,0');
    expect(sections[0]).toContain('Disponibilidad de la flota (%),99.71');
    expect(sections[3]).toBe('Dispositivo,ID,Disponibilidad 30 días (%)\r\nSwitch,sw-1,98.1\r\n"Cortafuegos, sede",fw-1,99.2');
    expect(sections[4]).toBe('Alarma,Veces,Severidad máxima\r\nCPU alta,4,Alta');
  });
});
