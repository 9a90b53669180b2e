/**
 * The set-up many API test files share: an in-process API on a fresh engine (`startInProcessApi`) seeded
 * with the route examples (`seedExamples`), every handler built once, a low-level client for "nothing
 * written" snapshots (`tableSnapshot`), all stopped after the file. Call `useExampleApi` at the top level of a
 * test file: it registers the vitest `beforeAll`/`afterAll` hooks and returns an object filled in by them.
 */
import { afterAll, beforeAll } from 'vitest';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HANDLER_NAMES, type HandlerName } from '../../lambdas/contract/routes.js';
import type { ApiHandler } from '../../lambdas/http/api.js';
import { startInProcessApi, type InProcessApi, type InProcessApiOptions } from './in-process-api.js';
import { seedExamples } from './route-examples.js';
import { tableSnapshot } from './table-snapshot.js';

/** What {@link useExampleApi} gives a test file (usable inside tests, after `beforeAll`). */
export interface ExampleApi {
  /** The running API (throws before `beforeAll` ran). */
  readonly api: InProcessApi;
  /** Every handler of the route table, built once (`api.handler`). */
  readonly handlers: Readonly<Record<HandlerName, ApiHandler>>;
  /** SHA-256 of every item of the table (test/support/table-snapshot.ts): equal before and after = nothing written. */
  snapshot(): Promise<string>;
}

/**
 * Registers the hooks that start and stop an example-seeded API with `opts` (a function is called in
 * `beforeAll`, for options built from other set-up).
 */
export function useExampleApi(opts: InProcessApiOptions | (() => InProcessApiOptions)): ExampleApi {
  let api: InProcessApi | undefined;
  let raw: DynamoDBClient | undefined;
  let table = '';
  const handlers = {} as Record<HandlerName, ApiHandler>;
  beforeAll(async () => {
    const o = typeof opts === 'function' ? opts() : opts;
    table = o.table;
    api = await startInProcessApi(o);
    raw = api.rawClient();
    for (const name of HANDLER_NAMES) handlers[name] = api.handler(name);
    await seedExamples(api.data);
  }, 60_000);
  afterAll(async () => {
    raw?.destroy();
    await api?.stop();
  });
  return {
    get api() {
      if (!api) throw new Error('useExampleApi: the API starts in beforeAll');
      return api;
    },
    handlers,
    snapshot: () => tableSnapshot(raw!, table),
  };
}
