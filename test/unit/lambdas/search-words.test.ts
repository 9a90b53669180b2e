/**
 * The word rules of the alarm and Office 365 user searches (lambdas/domain/search.ts; docs/data-model.md#search):
 * which words of an alarm title are indexed, and which parts of a UPN a user search matches by prefix.
 */
import { describe, expect, it } from 'vitest';
import { alarmMatches, alarmTokens, MAX_ALARM_TOKENS, upnKeys, userSearchWords } from '../../../lambdas/domain/search.js';

describe('alarm title words', () => {
  it('are the title rules (folded, stop words and one-letter words out), the first 16 distinct', () => {
    expect(alarmTokens('Temperatura ALTA en la Sucursal Córdoba (sensor 2)')).toEqual(['temperatura', 'alta', 'sucursal', 'cordoba', 'sensor']);
    const long = Array.from({ length: 30 }, (_, i) => `palabra${i}`).join(' ');
    expect(alarmTokens(long)).toHaveLength(MAX_ALARM_TOKENS);
    expect(alarmMatches('Temperatura alta en Córdoba', ['cordoba', 'alta'])).toBe(true);
    expect(alarmMatches('Temperatura alta en Córdoba', ['cordoba', 'baja'])).toBe(false);
    expect(alarmMatches('Temperatura alta', [])).toBe(false);
  });
});

describe('UPN parts of the user search', () => {
  it('are the folded UPN and each suffix starting a word of its local part (at most 4), never the domain alone', () => {
    expect(upnKeys(' María.López@Acme.example ')).toEqual(['maria.lopez@acme.example', 'lopez@acme.example']);
    expect(upnKeys('jorge_ruiz-diaz+it@acme.example')).toEqual(['jorge_ruiz-diaz+it@acme.example', 'ruiz-diaz+it@acme.example', 'diaz+it@acme.example', 'it@acme.example']);
    expect(upnKeys('a.b.c.d.e@x.example')).toHaveLength(4);
    expect(upnKeys('ana..perez@x.example')).toEqual(['ana..perez@x.example', 'perez@x.example']);
    expect(upnKeys('laura@acme.example')).toEqual(['laura@acme.example']);
  });

  it('searches the words of q folded, one-letter words left out', () => {
    expect(userSearchWords('  María  L  López ')).toEqual(['maria', 'lopez']);
    expect(userSearchWords('m')).toEqual([]);
  });
});
