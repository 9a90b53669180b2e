/**
 * Setup of the vitest `web` project (jsdom 29).
 * - Amplify UI's Authenticator builds `FormData` from its forms: use jsdom's (docs/decisions/sign-in-amplify-ui.md).
 * - jsdom lacks `scrollTo` and `matchMedia`; the shell scrolls to the top on navigation.
 * - Unmount rendered trees after each test.
 */
import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';

globalThis.FormData = window.FormData;
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
if (!window.matchMedia) {
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
