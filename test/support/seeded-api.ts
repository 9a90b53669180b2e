/**
 * The fixture of the scale tests of search (`data-search-*`): the in-process API with the tenants `acme` and
 * `globex`, and a document client of the test's own on the API's table, for bulk seeding and request capture.
 */
import { createDocumentClient, type TableRef } from '../../lambdas/data/table/client.js';
import { startInProcessApi, type InProcessApi } from './in-process-api.js';

/**
 * Starts the in-process API on table `tableName`, stores the tenants `acme` (Acme) and `globex` (Globex), and
 * opens a document client on that table (the API's engine and credentials).
 */
export async function startTwoTenantApi(tableName: string): Promise<{ api: InProcessApi; table: TableRef }> {
  const api = await startInProcessApi({ table: tableName });
  await api.data.putTenant({ id: 'acme', name: 'Acme' });
  await api.data.putTenant({ id: 'globex', name: 'Globex' });
  return { api, table: { doc: createDocumentClient(api.documentClientOptions()), tableName } };
}

/** Closes what {@link startTwoTenantApi} opened: the document client, then the API; either may be absent (a failed start). */
export async function stopTwoTenantApi(api: InProcessApi | undefined, table: TableRef | undefined): Promise<void> {
  table?.doc.destroy();
  await api?.stop();
}
