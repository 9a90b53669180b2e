/**
 * The structured JSON logger shared by the API Lambdas (Powertools Logger). Each invocation appends
 * `requestId` (API Gateway's `requestContext.requestId`), `operationId` and the caller's `sub` — never the
 * e-mail, tokens or bodies. Level from `POWERTOOLS_LOG_LEVEL` (default INFO).
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'vigia-api' });
