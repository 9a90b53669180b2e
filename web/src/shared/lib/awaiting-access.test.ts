/**
 * The waiting page's state survives a reload of the tab (docs/portal.md#groups-and-tenants): a social user in no
 * tenant is signed out through the user pool's hosted /logout, which comes back to a fresh page.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  window.sessionStorage.clear();
  vi.resetModules();
});

describe('awaiting access', () => {
  it('is kept in sessionStorage and read back by a fresh page; leaving the page clears it', async () => {
    const first = await import('./awaiting-access');
    first.markAwaitingAccess('social@example.com');
    expect(JSON.parse(window.sessionStorage.getItem(first.AWAITING_ACCESS_KEY)!)).toEqual({ email: 'social@example.com' });
    vi.resetModules();
    const reloaded = await import('./awaiting-access');
    const { renderHook } = await import('@testing-library/react');
    expect(renderHook(() => reloaded.useAwaitingAccess()).result.current).toEqual({ email: 'social@example.com' });
    reloaded.clearAwaitingAccess();
    expect(window.sessionStorage.getItem(reloaded.AWAITING_ACCESS_KEY)).toBeNull();
  });

  it('ignores a malformed stored value', async () => {
    window.sessionStorage.setItem('vigia:awaiting-access', '{"email":3}');
    const m = await import('./awaiting-access');
    const { renderHook } = await import('@testing-library/react');
    expect(renderHook(() => m.useAwaitingAccess()).result.current).toBeNull();
  });
});
