/**
 * `warmFormatters`: the dashboard's formatters are built ahead of the first render that uses them (the first
 * `Intl` formatter of a locale loads its ICU data: docs/portal.md#sign-in-to-dashboard), in the current language.
 * Its own file (module mocks run isolated), so the formatter cache starts empty.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Messages from './messages';

let language: 'es' | 'en' = 'es';
vi.mock('./messages', async (original) => ({ ...(await original<typeof Messages>()), messagesLanguage: () => language }));

const { formatDateTime, formatNumber, formatPercent, formatShortDay, warmFormatters } = await import('./format');

/** Locales of the `Intl.NumberFormat` / `Intl.DateTimeFormat` instances constructed while installed. */
const built: string[] = [];
const real = { NumberFormat: Intl.NumberFormat, DateTimeFormat: Intl.DateTimeFormat };
const counting = <T extends object>(ctor: T) =>
  new Proxy(ctor, {
    construct(target, args: unknown[]) {
      built.push(String(args[0]));
      return Reflect.construct(target as never, args) as object;
    },
  });

beforeEach(() => {
  built.length = 0;
  Intl.NumberFormat = counting(real.NumberFormat);
  Intl.DateTimeFormat = counting(real.DateTimeFormat);
});
afterEach(() => {
  Intl.NumberFormat = real.NumberFormat;
  Intl.DateTimeFormat = real.DateTimeFormat;
});

const renderFigures = () => [formatNumber(1234), formatPercent(99.5), formatDateTime('2026-11-29T10:00:00Z'), formatShortDay('2026-11-29')];

describe('warmFormatters', () => {
  it("builds the dashboard's formatters in the current language, so rendering figures builds none", () => {
    language = 'en';
    warmFormatters();
    expect(built).toEqual(['en-GB', 'en-GB', 'en-GB', 'en-GB']);
    built.length = 0;
    expect(renderFigures().slice(0, 2)).toEqual(['1,234', '99.5 %']);
    expect(built).toEqual([]);
  });

  it('a language not warmed builds its formatters at first use (what the warm-up moves out of the render)', () => {
    language = 'es';
    expect(renderFigures().slice(0, 2)).toEqual(['1234', '99,5 %']);
    expect(built).toEqual(['es-ES', 'es-ES', 'es-ES', 'es-ES']);
  });
});
