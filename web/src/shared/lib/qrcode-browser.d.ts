/** The subset of `qrcode` 1.5's browser build (`qrcode/lib/browser.js`) that `qrcode-on-demand.ts` calls. */
declare module 'qrcode/lib/browser.js' {
  export interface QRCodeToDataURLOptions {
    width?: number;
    margin?: number;
    errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H';
  }
  /** Renders `text` as a PNG data URL; rejects with 'No input text' for an empty string. */
  export function toDataURL(text: string, options?: QRCodeToDataURLOptions): Promise<string>;
}
