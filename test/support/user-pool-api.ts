/**
 * The in-process API on a local Cognito user pool (scripts/local/cognito): for the administration and team
 * route tests, whose handlers read and change real pool users and groups. The pool keeps its data and its
 * invitations log (`invitations.log`: one line a temporary password sent) in a fresh temporary directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import type { UsersPort } from '../../lambdas/domain/ports.js';
import { startUserPool, type RunningUserPool } from '../../scripts/local/cognito/index.js';
import { LOCAL_OPERATOR_CREDENTIAL } from '../../scripts/local/config.js';
import { startInProcessApi, type InProcessApi } from './in-process-api.js';

/** A running pool and the API on it. */
export interface UserPoolApi {
  /** The pool's data directory (removed by `stop`). */
  dataDir: string;
  /** The file the pool logs the invitations it "sends" to. */
  invitationsFile: string;
  pool: RunningUserPool;
  /** What the Cognito adapters are built with: the pool, region `eu-west-1`, its endpoint, the operator key. */
  poolClient: { userPoolId: string; region: string; endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string } };
  /** The Lambdas' Cognito adapter on the pool (`cognitoUsers`). */
  users: UsersPort;
  /** The API on table `table`, with `users`; tenants `acme` (Acme) and `globex` (Globex) exist. */
  api: InProcessApi;
  /** Stops the API and the pool and removes the data directory. */
  stop(): Promise<void>;
}

/**
 * Starts a user pool (free ports, data under a temporary directory named `vigia-<name>-…`) and the in-process
 * API on table `table` with the pool's users adapter, then stores the tenants `acme` and `globex`.
 * On a failure midway, what was started is stopped before the error is rethrown.
 */
export async function startUserPoolApi(table: string, name: string): Promise<UserPoolApi> {
  const dataDir = await mkdtemp(join(tmpdir(), `vigia-${name}-`));
  const invitationsFile = join(dataDir, 'invitations.log');
  let pool: RunningUserPool | undefined;
  let api: InProcessApi | undefined;
  const stop = async () => {
    await api?.stop();
    await pool?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    pool = await startUserPool({ dataDir, port: 0, internalPort: 0, invitationsFile });
    const poolClient = { userPoolId: pool.userPoolId, region: 'eu-west-1', endpoint: pool.endpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } };
    const users = cognitoUsers(poolClient);
    api = await startInProcessApi({ table, users });
    await api.data.putTenant({ id: 'acme', name: 'Acme' });
    await api.data.putTenant({ id: 'globex', name: 'Globex' });
    return { dataDir, invitationsFile, pool, poolClient, users, api, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
