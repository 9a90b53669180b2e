/**
 * One dynoxide engine and the project's table for an integration test file (docs/testing.md): started by a
 * `beforeAll` (60 s timeout: the engine's start-up), stopped by an `afterAll`, with a document client on it.
 *
 * Usage: `let table: TableRef; useDynamoTable('vigia-x', (t) => { table = t; });` — `onReady` gets the
 * `TableRef` and the engine's endpoint once the table exists. Hooks a file registers after this call run
 * after it (vitest runs `beforeAll` hooks in order), so they can use `table`.
 * Errors: whatever `startDynamo`/`ensureTable` raise (missing binary, engine not answering) fail the file.
 */
import { afterAll, beforeAll } from 'vitest';
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { ensureTable, startDynamo, type RunningDynamo } from '../../scripts/local/dynamodb.js';

/** Local engine credentials (any value is accepted). */
export const LOCAL_CREDENTIALS = { accessKeyId: 'l', secretAccessKey: 'l' };

export function useDynamoTable(tableName: string, onReady: (table: TableRef, endpoint: string) => void | Promise<void>, region = 'eu-west-1'): void {
  let dynamo: RunningDynamo | undefined;
  let table: TableRef | undefined;
  beforeAll(async () => {
    dynamo = await startDynamo({ port: 0 });
    await ensureTable(dynamo.endpoint, tableName);
    table = { doc: createDocumentClient({ endpoint: dynamo.endpoint, region, credentials: LOCAL_CREDENTIALS }), tableName };
    await onReady(table, dynamo.endpoint);
  }, 60_000);
  afterAll(async () => {
    table?.doc.destroy();
    await dynamo?.stop();
  });
}
