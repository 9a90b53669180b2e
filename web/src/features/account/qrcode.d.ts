/** The subset of `qrcode` 1.5 (the QR library Amplify UI's TOTP set-up uses) the profile screen calls. */
declare module 'qrcode' {
  /** Renders `text` as a PNG data URL (`data:image/png;base64,…`); `width` in CSS pixels. */
  export function toDataURL(text: string, options?: { width?: number; margin?: number; errorCorrectionLevel?: 'L' | 'M' | 'Q' | 'H' }): Promise<string>;
  const QRCode: { toDataURL: typeof toDataURL };
  export default QRCode;
}
