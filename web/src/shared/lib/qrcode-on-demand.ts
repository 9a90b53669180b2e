/**
 * `qrcode` loaded on demand. The portal's build resolves the bare specifier `qrcode` to this module
 * (`resolve.alias` in web/vite.config.ts), so Amplify UI's TOTP set-up screen (`SetupTotp`, which imports
 * `qrcode` statically) and the profile's MFA card no longer put the QR encoder (~15 KB gzip) in the sign-in
 * page's initial JS: the real library (`qrcode/lib/browser.js`, the file its `browser` field names) is fetched
 * the first time a QR image is drawn. Why: docs/portal.md#bundles.
 *
 * Same API subset as the library: `toDataURL(text, options)` resolving to a PNG data URL; it rejects as the
 * library does (e.g. 'No input text' for an empty string) or when the chunk cannot be loaded.
 */
import type { QRCodeToDataURLOptions } from 'qrcode/lib/browser.js';

/** Renders `text` as a PNG data URL (`data:image/png;base64,…`); `width` in CSS pixels. */
export async function toDataURL(text: string, options?: QRCodeToDataURLOptions): Promise<string> {
  const lib = await import('qrcode/lib/browser.js');
  return lib.toDataURL(text, options);
}

const QRCode = { toDataURL };
export default QRCode;
