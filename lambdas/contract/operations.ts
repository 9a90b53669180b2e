/**
 * The types the portal's API client is built on, inferred from the route table's rows (`routes.ts`, the
 * only place an operation's schemas are named): operation ids, path parameters, query, body and the
 * success response body of each operation.
 */
export type { OperationBody, OperationId, OperationParams, OperationQuery, OperationResponse } from './routes.js';
export { buildPath, routeById } from './routes.js';
