/**
 * How this project starts Debian's Chromium headless with playwright-core (browser suite, smoke test, bench).
 * The flags are the ones that work as root on the development machines without a network beyond localhost
 * (docs/decisions/headless-chromium.md); without the background-networking flags Chromium keeps dialling out.
 */

/** Chromium command-line flags for headless runs. */
export const CHROMIUM_ARGS: string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium executable: `$CHROMIUM_PATH`, else Debian's `/usr/bin/chromium` (`apt-get install -y chromium`). */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}
