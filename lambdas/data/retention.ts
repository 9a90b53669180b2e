/**
 * Retention of time-series items (DynamoDB TTL on `expiresAt`), configured per stage through the Lambda
 * environment (`infra/stage-config.ts` → `dataRetention`).
 */

/**
 * Parses a retention setting in days.
 * @param value the raw environment value (e.g. `process.env.O365_EVENT_RETENTION_DAYS`).
 * @param fallback days used when the value is absent or not an integer in 1–3650.
 * @returns days, an integer in 1–3650.
 */
export function retentionDays(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isInteger(n) && n >= 1 && n <= 3650 ? n : fallback;
}
