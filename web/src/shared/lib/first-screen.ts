/**
 * "The first screen after a sign-in has its data on the screen", once per sign-in (docs/portal.md#sign-in-to-dashboard).
 *
 * The gate opens the portal on the user pool's answer and holds Amplify's own copy of it back until then
 * (`AuthGate`, `sign-in-tokens.ts`): Amplify's next step, the device verifier, is ~120 ms of synchronous CPU that
 * would otherwise delay that first render. The dashboard — where a sign-in lands — calls
 * {@link markFirstScreenShown} once its figures (or its error) are committed; the gate waits with
 * {@link firstScreenShown}, under its own time cap.
 */
let resolveShown: (() => void) | null = null;
let shown: Promise<void> = new Promise((r) => (resolveShown = r));

/** Says the first screen's data is committed (idempotent until the next {@link resetFirstScreen}). */
export function markFirstScreenShown(): void {
  resolveShown?.();
  resolveShown = null;
}

/** Resolves once {@link markFirstScreenShown} has been called since the last {@link resetFirstScreen}. */
export function firstScreenShown(): Promise<void> {
  return shown;
}

/** Starts waiting for a new first screen (a new sign-in). */
export function resetFirstScreen(): void {
  shown = new Promise((r) => (resolveShown = r));
}
