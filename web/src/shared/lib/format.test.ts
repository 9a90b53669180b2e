import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALARM_STATE_LABELS, deviceTypeLabel, formatShortDay, INCIDENT_SOURCE_LABELS, SEVERITY_LABELS } from './format';
import { setMessagesLanguage } from './messages';

afterEach(() => setMessagesLanguage('es'));

describe('deviceTypeLabel', () => {
  it('labels the collectors’ device types in Spanish and keeps unknown ones as sent', () => {
    expect(deviceTypeLabel('access_point')).toBe('Punto de acceso');
    expect(deviceTypeLabel('firewall')).toBe('Cortafuegos');
    expect(deviceTypeLabel('plc')).toBe('plc');
  });
});

describe('enum labels (one set, read from the catalogue in the current language)', () => {
  it('labels alarm states and incident sources like every other enum, and follows the language', () => {
    expect([ALARM_STATE_LABELS.active, ALARM_STATE_LABELS.acknowledged, ALARM_STATE_LABELS.cleared]).toEqual(['Activa', 'Reconocida', 'Resuelta']);
    expect(INCIDENT_SOURCE_LABELS.alarm).toBe('Alarma');
    setMessagesLanguage('en');
    expect([ALARM_STATE_LABELS.active, ALARM_STATE_LABELS.acknowledged, ALARM_STATE_LABELS.cleared]).toEqual(['Active', 'Acknowledged', 'Cleared']);
    expect([INCIDENT_SOURCE_LABELS.portal, INCIDENT_SOURCE_LABELS.alarm, SEVERITY_LABELS.high]).toEqual(['Portal', 'Alarm', 'High']);
  });
});

describe('formatShortDay (the charts\' day labels)', () => {
  it('formats a UTC day in the current language with one formatter per language, and keeps what is not a date', () => {
    expect(formatShortDay('2026-03-03')).toBe('3 mar');
    setMessagesLanguage('en');
    expect(formatShortDay('2026-03-03')).toBe('3 Mar');
    expect(formatShortDay('2026-12-31')).toBe('31 Dec');
    expect(formatShortDay('semana 9')).toBe('semana 9');
  });

  it('does not build a date formatter per call', () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    formatShortDay('2026-03-03');
    const afterFirst = made.mock.calls.length;
    for (let i = 1; i <= 28; i++) formatShortDay(`2026-02-${String(i).padStart(2, '0')}`);
    expect(made.mock.calls.length).toBe(afterFirst);
    made.mockRestore();
  });
});
