import { afterEach, describe, expect, it } from 'vitest';
import { ALARM_STATE_LABELS, deviceTypeLabel, INCIDENT_SOURCE_LABELS, SEVERITY_LABELS } from './format';
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
