/**
 * Retention of time-series items (DynamoDB TTL on `expiresAt`): the `retention` part of the Lambda
 * configuration (`lambdas/config.ts`; per stage in `infra/stage-config.ts` → `dataRetention`).
 */
import { LambdaConfig } from '../config.js';

/** Days each time-series entity is kept: `availabilityDays` (daily availability), `o365EventDays` (Office 365 events). */
export type Retention = LambdaConfig['retention'];

/** The configuration's defaults (availability 400 days, Office 365 events 90 days). */
export const DEFAULT_RETENTION: Retention = LambdaConfig.shape.retention.parse(undefined);
