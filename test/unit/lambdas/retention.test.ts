import { describe, expect, it } from 'vitest';
import { availabilityRetentionDays } from '../../../lambdas/data/devices.js';
import { o365EventRetentionDays } from '../../../lambdas/data/office365.js';
import { retentionDays } from '../../../lambdas/data/retention.js';

describe('time-series retention (TTL days)', () => {
  it('reads a valid number of days and falls back otherwise', () => {
    expect(retentionDays('30', 90)).toBe(30);
    expect(retentionDays('3650', 90)).toBe(3650);
    for (const bad of [undefined, '', '0', '-5', '1.5', 'abc', '3651']) expect(retentionDays(bad, 90), String(bad)).toBe(90);
  });

  it('has one default per kind of data', () => {
    expect(availabilityRetentionDays(undefined)).toBe(400);
    expect(availabilityRetentionDays('120')).toBe(120);
    expect(o365EventRetentionDays(undefined)).toBe(90);
    expect(o365EventRetentionDays('30')).toBe(30);
  });
});
