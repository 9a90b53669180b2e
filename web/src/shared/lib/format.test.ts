import { describe, expect, it } from 'vitest';
import { deviceTypeLabel } from './format';

describe('deviceTypeLabel', () => {
  it('labels the collectors’ device types in Spanish and keeps unknown ones as sent', () => {
    expect(deviceTypeLabel('access_point')).toBe('Punto de acceso');
    expect(deviceTypeLabel('firewall')).toBe('Cortafuegos');
    expect(deviceTypeLabel('plc')).toBe('plc');
  });
});
