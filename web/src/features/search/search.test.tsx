import { describe, expect, it } from 'vitest';
import { deviceMatches } from './SearchResultsPage';

const DEV = { id: 'fw-01', name: 'Cortafuegos Sede Central', site: 'Málaga', ipAddress: '10.0.0.1', vendor: 'Fortinet', model: 'FG-100F', type: 'firewall' };

describe('header search over devices', () => {
  it('matches any field, ignoring case and accents', () => {
    expect(deviceMatches(DEV, 'malaga')).toBe(true);
    expect(deviceMatches(DEV, 'CORTAFUEGOS')).toBe(true);
    expect(deviceMatches(DEV, '10.0.0')).toBe(true);
    expect(deviceMatches(DEV, 'fg-100')).toBe(true);
    expect(deviceMatches(DEV, 'switch')).toBe(false);
  });
});
