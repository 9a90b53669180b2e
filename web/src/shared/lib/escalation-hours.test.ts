import { describe, expect, it } from 'vitest';
import { availableAt, contactsFor, type ContactHours } from './escalation-hours';

const madridOffice: ContactHours = { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00', timeZone: 'Europe/Madrid' };
const fridayNight: ContactHours = { days: ['fri'], from: '22:00', to: '06:00', timeZone: 'Europe/Madrid' };
const mexicoOffice: ContactHours = { days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '18:00', timeZone: 'America/Mexico_City' };

describe('escalation hours', () => {
  it('reads the range in the contact\'s time zone (Madrid 17:30 is Mexico City 10:30 in November)', () => {
    const now = new Date('2026-11-27T16:30:00Z'); // Friday: 17:30 in Madrid (UTC+1), 10:30 in Mexico City (UTC-6)
    expect(availableAt(madridOffice, now)).toBe(true);
    expect(availableAt(mexicoOffice, now)).toBe(true);
    const later = new Date('2026-11-27T17:30:00Z'); // 18:30 Madrid (closed), 11:30 Mexico City (open)
    expect(availableAt(madridOffice, later)).toBe(false);
    expect(availableAt(mexicoOffice, later)).toBe(true);
  });

  it('an overnight range reaches the next morning and not the morning before', () => {
    expect(availableAt(fridayNight, new Date('2026-11-28T04:00:00Z'))).toBe(true); // Saturday 05:00 Madrid
    expect(availableAt(fridayNight, new Date('2026-11-28T05:30:00Z'))).toBe(false); // Saturday 06:30 Madrid
    expect(availableAt(fridayNight, new Date('2026-11-27T04:00:00Z'))).toBe(false); // Friday 05:00 Madrid: Thursday had no range
    expect(availableAt(fridayNight, new Date('2026-11-27T21:30:00Z'))).toBe(true); // Friday 22:30 Madrid
  });

  it('keeps the contacts of the severity, those available now first, in calling order', () => {
    const contacts = [
      { name: 'Oficina', severities: ['high', 'critical'], hours: madridOffice },
      { name: 'Noche', severities: ['critical'], hours: fridayNight },
      { name: 'Siempre', severities: ['critical'], hours: '24x7' as const },
      { name: 'Solo bajas', severities: ['low'], hours: '24x7' as const },
    ];
    const saturdayNight = new Date('2026-11-28T02:00:00Z'); // Saturday 03:00 Madrid
    expect(contactsFor(contacts, 'critical', saturdayNight).map((c) => [c.name, c.availableNow])).toEqual([
      ['Noche', true],
      ['Siempre', true],
      ['Oficina', false],
    ]);
  });
});
