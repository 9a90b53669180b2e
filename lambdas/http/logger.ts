/**
 * The structured JSON logger of an API Lambda (Powertools Logger), built from the Lambda configuration
 * when the handler is built (first invocation), not at import time: service name and level come from
 * `LambdaConfig.serviceName` / `logLevel`. Each invocation appends `requestId` (API Gateway's
 * `requestContext.requestId`), `operationId` and the caller's `sub` — never the e-mail, tokens or bodies.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { LambdaConfig } from '../config.js';

/** A logger for `config` (explicit level and service name: the process environment is not consulted). */
export function createLogger(config: Pick<LambdaConfig, 'serviceName' | 'logLevel'>): Logger {
  return new Logger({ serviceName: config.serviceName, logLevel: config.logLevel });
}
