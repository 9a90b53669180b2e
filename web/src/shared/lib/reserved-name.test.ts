/**
 * 400 RESERVED_NAME (a tenant id or e-mail domain reserved for the staff; docs/api.md#reserved-names) shows its
 * own message in Spanish and in English, not the generic "could not complete the request".
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiError } from './api';
import { messagesLanguage, setMessagesLanguage } from './messages';

const language = messagesLanguage();
afterEach(() => setMessagesLanguage(language));

const reserved = () =>
  createApiClient({
    baseUrl: 'http://api',
    getIdToken: async () => 'id.token.jwt',
    fetchImpl: async () =>
      new Response(JSON.stringify({ code: 'RESERVED_NAME', message: 'reserved', requestId: 'req-1', details: { fields: ['tenantId'], names: ['admin'] } }), {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      }),
  });

describe('RESERVED_NAME', () => {
  it.each([
    ['es', /reservado para el personal del SOC/],
    ['en', /reserved for the SOC staff/],
  ] as const)('%s: its own message', async (lang, text) => {
    setMessagesLanguage(lang);
    const err = (await reserved()
      .call('createTenant', { body: { tenantId: 'admin', name: 'Admin' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(err).toMatchObject({ kind: 'client', status: 400, code: 'RESERVED_NAME' });
    expect(err.userMessage).toMatch(text);
  });
});
