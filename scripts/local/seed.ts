/**
 * Seeds the local stack with demo data, idempotently:
 *  - Cognito: the `admin` group, one group per demo tenant (group name = tenant id, description = name),
 *    and the demo users (confirmed, e-mail verified, permanent password) in their groups — through the
 *    Cognito API (`@aws-sdk/client-cognito-identity-provider`), the same calls an admin script makes in AWS.
 *  - DynamoDB (through the repository layer in `lambdas/data`): tenants, ~40 incidents per tenant with
 *    history and comments, ~20 devices per tenant with 30 days of availability and alarms, and per tenant
 *    Office 365 audit events and alerts and the recommendations — so the Office 365 and recommendation
 *    screens have data without the collector simulator (`npm start -- --no-collector`, tests, bench).
 * Data is written only when the tenant registry is empty, so what a developer changed survives restarts.
 *
 * Run alone with `npm run seed` against a running `npm start` (uses the default local ports).
 */
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import type { IncidentChange, IncidentComment, IncidentStatus } from '../../lambdas/contract/schemas.js';
import { ADMIN_GROUP, CUSTOMER_ROLE_GROUPS } from '../../lambdas/contract/routes.js';
import {
  dynamoRepository,
  getTenant,
  putAlarm,
  putDailyAvailability,
  putDevice,
  putIncident,
  putO365Event,
  putRecommendation,
  putTenant,
  recordHeartbeat,
  setTenantCollector,
  upsertO365Alarm,
  type TableRef,
} from '../../lambdas/data/index.js';
import { DEVICE_ALARM_TYPES } from '../../lambdas/domain/alarm-types.js';
import { collectorPrincipal } from '../../lambdas/domain/collectors.js';
import { formatIncidentId, slaDueAt, targetsFor, upgradeIncident } from '../../lambdas/domain/incidents.js';
import { upgradeAggregates, upgradeAlarmConsole, upgradeAlarmDeviceNames, upgradeIncidents, upgradeSearchIndex, upgradeSocQueueIndexes } from '../../lambdas/data/migrations.js';
import { cognitoUsers } from '../../lambdas/data/cognito-users.js';
import { reconcileUserCounts } from '../../lambdas/data/tenant-admin.js';
import {
  DEMO_TENANTS,
  DEMO_USERS,
  demoDevices,
  demoIncidents,
  demoO365Alarms,
  demoO365Events,
  demoRecommendations,
  type DemoDevice,
  type DemoIncident,
  type DemoTenant,
  type DemoUser,
} from './demo-data.js';
import { seedDemoActivity } from './demo-activity.js';
import { DEFAULT_PORTS, DEMO_REGION, LOCAL_COLLECTOR_GRANTS, LOCAL_OPERATOR_CREDENTIAL, LOCAL_STAGE, localTable } from './config.js';

export type { DemoUser } from './demo-data.js';


export interface SeedTarget {
  dynamoEndpoint: string;
  tableName: string;
  cognitoEndpoint: string;
  userPoolId: string;
  /** Reference time, ms since epoch (default now). */
  now?: number;
}

function isAws(e: unknown, name: string): boolean {
  return typeof e === 'object' && e !== null && (e as { name?: string }).name === name;
}

/** Creates the groups and users (skipping what exists). */
export async function seedCognito(cognitoEndpoint: string, userPoolId: string, users: DemoUser[] = DEMO_USERS): Promise<void> {
  // Administrative operations: signed with the local pool's operator key (docs/local-emulation.md#administrative-operations).
  const { accessKeyId, secretAccessKey } = LOCAL_OPERATOR_CREDENTIAL;
  const idp = new CognitoIdentityProviderClient({ endpoint: cognitoEndpoint, region: DEMO_REGION, credentials: { accessKeyId, secretAccessKey } });
  try {
    const groups = [
      { name: ADMIN_GROUP, description: 'Personal del SOC (todas las organizaciones)' },
      ...Object.entries(CUSTOMER_ROLE_GROUPS).map(([role, name]) => ({ name, description: `Rol de cliente: ${role}` })),
      ...DEMO_TENANTS.map((t) => ({ name: t.id, description: t.name })),
    ];
    for (const g of groups) {
      try {
        await idp.send(new CreateGroupCommand({ UserPoolId: userPoolId, GroupName: g.name, Description: g.description }));
      } catch (e) {
        if (!isAws(e, 'GroupExistsException')) throw e;
      }
    }
    for (const u of users) {
      let exists = true;
      try {
        await idp.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: u.email }));
      } catch (e) {
        if (!isAws(e, 'UserNotFoundException')) throw e;
        exists = false;
      }
      if (!exists) {
        await idp.send(
          new AdminCreateUserCommand({
            UserPoolId: userPoolId,
            Username: u.email,
            MessageAction: 'SUPPRESS',
            UserAttributes: [
              { Name: 'email', Value: u.email },
              { Name: 'email_verified', Value: 'true' },
            ],
          }),
        );
        await idp.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: u.email, Password: u.password, Permanent: true }));
      }
      // Membership is (re)asserted every time: AdminAddUserToGroup is idempotent.
      for (const g of u.groups) {
        await idp.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: u.email, GroupName: g }));
      }
    }
  } finally {
    idp.destroy();
  }
}

/** The status path a demo incident went through, e.g. new → in_progress → resolved → closed. */
function statusPath(final: IncidentStatus, seq: number): IncidentStatus[] {
  switch (final) {
    case 'new':
      return ['new'];
    case 'in_progress':
      return ['new', 'in_progress'];
    case 'on_hold':
      return ['new', 'in_progress', 'on_hold'];
    case 'resolved':
      return seq % 4 === 0 ? ['new', 'in_progress', 'on_hold', 'in_progress', 'resolved'] : ['new', 'in_progress', 'resolved'];
    case 'closed':
      return ['new', 'in_progress', 'resolved', 'closed'];
  }
}

/** History entries and comments consistent with the incident's final status and times. */
function incidentTimeline(d: DemoIncident): { history: IncidentChange[]; comments: IncidentComment[] } {
  const path = statusPath(d.status, d.seq);
  const start = Date.parse(d.createdAt);
  const end = Date.parse(d.resolvedAt ?? d.updatedAt);
  const steps = path.length - 1;
  const by = d.assignee ?? 'soc@vigia.example';
  const history: IncidentChange[] = [];
  // Triage first (docs/sla.md#triage-first): the move out of `new` carries the triage (the reported severity
  // confirmed, the default targets fixed) with its reason, as the PATCH that does it in the portal records it.
  const targets = targetsFor(null, d.severity);
  for (let i = 1; i <= steps; i++) {
    const at = new Date(start + Math.floor(((end - start) * i) / Math.max(steps, 1))).toISOString();
    const status = { field: 'status', from: path[i - 1]!, to: path[i]! };
    history.push(
      i === 1
        ? { version: i + 1, at, by, changes: [{ field: 'slaTargets', from: null, to: `response ${targets.responseMinutes} min, resolution ${targets.resolutionMinutes} min` }, status], reason: 'Triaje del SOC: severidad confirmada' }
        : { version: i + 1, at, by, changes: [status] },
    );
  }
  const comments: IncidentComment[] =
    d.status === 'new'
      ? []
      : [
          {
            id: `c-${d.tenantId}-${d.seq}-1`,
            author: by,
            body: 'El SOC está analizando el incidente; se informará de las acciones de contención.',
            createdAt: new Date(start + Math.floor((end - start) / 3)).toISOString(),
            visibility: 'public',
          },
        ];
  return { history, comments };
}

const DAY_MS = 86_400_000;

/** Sets each reporting device's heartbeat to `now` minus its demo age (only ever moves forward). */
export async function refreshHeartbeats(table: TableRef, now = Date.now(), devices?: DemoDevice[]): Promise<void> {
  const all = devices ?? DEMO_TENANTS.flatMap((t) => demoDevices(t, now));
  await Promise.all(
    all
      .filter((d) => d.heartbeatAgeMinutes !== null && d.heartbeatAgeMinutes < 60)
      .map((d) => recordHeartbeat({ tenantId: d.tenantId, deviceId: d.id, at: new Date(now - d.heartbeatAgeMinutes! * 60_000).toISOString() }, table)),
  );
}

/** Runs `fn` over `items` with at most `n` in flight. */
async function inBatches<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += n) await Promise.all(items.slice(i, i + n).map(fn));
}

/**
 * Grants each local collector key's principal its tenants (`LOCAL_COLLECTOR_GRANTS`): the demo collector
 * every demo tenant, the acme key `acme` only. Idempotent (string set ADD), run on every seed so a state
 * folder seeded before the grants existed gets them too (docs/api.md#collectors-and-tenants).
 */
export async function grantLocalCollectors(table: TableRef): Promise<void> {
  for (const { credential, tenants } of LOCAL_COLLECTOR_GRANTS) {
    const principal = collectorPrincipal(credential.userArn)!;
    for (const id of tenants === 'all-demo' ? DEMO_TENANTS.map((t) => t.id) : tenants) await setTenantCollector(id, principal, 'grant', table);
  }
}

/**
 * Writes a tenant's demo devices (`demoDevices` at `now`, ms since epoch): each device, its alarms (with
 * who acknowledged them and when, or when they cleared) and its 30 days of availability. Not idempotent by
 * itself: `seedDemoData` calls it once, before the tenant registry entry marks the seed complete.
 */
export async function seedDemoDevices(tenant: DemoTenant, now: number, table: TableRef): Promise<void> {
  const devices = demoDevices(tenant, now);
  await inBatches(devices, 8, async (d) => {
    await putDevice(
      {
        tenantId: d.tenantId,
        id: d.id,
        name: d.name,
        type: d.type,
        site: d.site,
        ipAddress: d.ipAddress,
        vendor: d.vendor,
        model: d.model,
        lastHeartbeatAt: d.heartbeatAgeMinutes === null ? null : new Date(now - d.heartbeatAgeMinutes * 60_000).toISOString(),
      },
      table,
    );
    for (const a of d.alarms) {
      // Acknowledged alarms carry who acknowledged them and when; cleared ones when they cleared.
      const { acknowledgedAt, acknowledgedBy, clearedAt } = a;
      await putAlarm({ id: a.id, tenantId: d.tenantId, deviceId: d.id, raisedAt: a.raisedAt, severity: a.severity, state: a.state, title: a.title, acknowledgedAt, acknowledgedBy, clearedAt }, table);
    }
  });
  // Each day's write also updates its device item (revision and 30-day roll-up), so two days of one
  // device written at once contend for that item (transaction conflicts, retried after a backoff): one
  // device's days in order, the devices in parallel (back to back: 17 s → 10–13 s on a busy 2-core machine).
  await inBatches(devices, devices.length, async (d) => {
    for (const [i, pct] of d.dailyAvailability.entries()) {
      const date = new Date(now - (d.dailyAvailability.length - i) * DAY_MS).toISOString().slice(0, 10);
      await putDailyAvailability({ tenantId: d.tenantId, deviceId: d.id, date, availablePct: pct }, table);
    }
  });
}

/** Who the lifecycle backfill names as having acknowledged a seeded alarm (`backfillDemoAlarmLifecycle`). */
export const BACKFILL_ACKNOWLEDGED_BY = 'soc@vigia.example';

/** Titles earlier seeds gave alarm types, by their catalogue title (`backfillDemoAlarmLifecycle` renames them). */
const LEGACY_ALARM_TITLES: Readonly<Record<string, string>> = { 'Dispositivo sin latido': DEVICE_ALARM_TYPES.heartbeat_lost.title };

/**
 * State seeded before seeded alarms carried their lifecycle fields and catalogue titles: gives each seeded
 * alarm (id `ALM-…`) that is `acknowledged` without `acknowledgedBy`, or `cleared` without `clearedAt`, the
 * missing fields (acknowledged by `BACKFILL_ACKNOWLEDGED_BY` 20 min after it was raised; cleared 1 h after;
 * never after `now`), and renames an old title to its `DEVICE_ALARM_TYPES` one. Idempotent; alarms raised
 * by the simulator or changed through the API already carry the fields and are left alone
 * (docs/local-emulation.md#demo-data). Returns how many alarms it changed.
 */
export async function backfillDemoAlarmLifecycle(table: TableRef, now = Date.now()): Promise<number> {
  const repo = dynamoRepository(table);
  let fixed = 0;
  for (const tenant of DEMO_TENANTS) {
    let cursor: string | undefined;
    do {
      const page = await repo.devices.listAlarms(tenant.id, { limit: 100, cursor });
      for (const a of page.items) {
        if (!a.id.startsWith('ALM-')) continue;
        const at = (minutes: number) => new Date(Math.min(now, Date.parse(a.raisedAt) + minutes * 60_000)).toISOString();
        const next = { ...a, title: LEGACY_ALARM_TITLES[a.title] ?? a.title };
        if (a.state === 'acknowledged' && !a.acknowledgedBy) Object.assign(next, { acknowledgedBy: BACKFILL_ACKNOWLEDGED_BY, acknowledgedAt: a.acknowledgedAt ?? at(20) });
        if (a.state === 'cleared' && !a.clearedAt) next.clearedAt = at(60);
        if (JSON.stringify(next) === JSON.stringify(a)) continue;
        await putAlarm(next, table);
        fixed++;
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return fixed;
}

/**
 * The tenants' `userCount` from the local pool's groups (the seed adds members with Cognito calls alone;
 * docs/data-model.md#tenant-counts): the backfill of `npm run platform:user-counts`, idempotent.
 */
async function countLocalMembers(target: SeedTarget, table: TableRef): Promise<void> {
  const users = cognitoUsers({ userPoolId: target.userPoolId, region: DEMO_REGION, endpoint: target.cognitoEndpoint, credentials: { ...LOCAL_OPERATOR_CREDENTIAL } });
  await reconcileUserCounts(table, users, { check: false });
}

/**
 * Seeds Cognito and DynamoDB. Returns the demo users and whether business data was written now
 * (false when it was already there).
 */
export async function seedDemoData(target: SeedTarget): Promise<{ users: DemoUser[]; created: boolean }> {
  const now = target.now ?? Date.now();
  await seedCognito(target.cognitoEndpoint, target.userPoolId);
  const table = localTable(target.dynamoEndpoint, target.tableName);
  try {
    const first = DEMO_TENANTS[0]!;
    if (await getTenant(first.id, table)) {
      await grantLocalCollectors(table);
      await refreshHeartbeats(table, now);
      // State from an earlier version: fill the incidents' SLA fields and the SOC queue (docs/sla.md#upgrade),
      // and the seeded alarms' acknowledgement/clearing fields (docs/local-emulation.md#demo-data).
      await upgradeIncidents(table);
      // The status index and title words of incidents, the folded device names (docs/data-model.md#search).
      await upgradeSearchIndex(table);
      // The per-tenant (GSI4) and per-assignee SOC queues of open incidents stored before them (docs/sla.md#soc-queue).
      await upgradeSocQueueIndexes(table);
      await backfillDemoAlarmLifecycle(table, now);
      // The device names on alarms stored before the copy (docs/data-model.md#alarm-device-names).
      await upgradeAlarmDeviceNames(table);
      // The staff alarm console's entries of alarms and alerts stored before it (docs/data-model.md#alarm-console-entries).
      await upgradeAlarmConsole(table);
      // Demo activity events of a state stored before the feed existed (docs/notifications.md).
      for (const tenant of DEMO_TENANTS) await seedDemoActivity(tenant.id, table, { onlyIfEmpty: true });
      // Aggregates of state written before they existed (docs/data-model.md#aggregates).
      await upgradeAggregates(table, new Date(now));
      await countLocalMembers(target, table);
      return { users: DEMO_USERS, created: false };
    }
    for (const tenant of DEMO_TENANTS) {
      const reporter = DEMO_USERS.find((u) => u.groups.includes(tenant.id))?.email ?? 'cliente@example.com';
      await inBatches(demoIncidents(tenant, reporter, now), 8, async (d) => {
        const { history, comments } = incidentTimeline(d);
        await putIncident(
          upgradeIncident({
            id: formatIncidentId(d.seq),
            tenantId: d.tenantId,
            title: d.title,
            description: d.description,
            severity: d.severity,
            status: d.status,
            category: d.category,
            source: d.source,
            reporter: d.reporter,
            assignee: d.assignee,
            createdAt: d.createdAt,
            updatedAt: d.updatedAt,
            resolvedAt: d.resolvedAt,
            slaDueAt: slaDueAt(d.createdAt, d.severity),
            version: history.length + 1,
            // Triaged when it left `new` (its first history entry, which records the triage).
            ...(history[0] ? { triagedAt: history[0].at, slaTargets: targetsFor(null, d.severity) } : {}),
          }, history),
          { history, comments },
          table,
        );
      });
      await seedDemoDevices(tenant, now, table);
      await inBatches(demoO365Events(tenant, now), 16, async (ev) => void (await putO365Event(ev, table)));
      for (const a of demoO365Alarms(tenant, now)) await upsertO365Alarm(a, table);
      for (const r of demoRecommendations(tenant, now, reporter)) await putRecommendation(r, table);
      await seedDemoActivity(tenant.id, table);
      // The tenant registry entry goes last: its presence marks a complete seed.
      await putTenant(tenant, table);
    }
    await grantLocalCollectors(table);
    // The writes above kept the aggregates; this marks them complete (aggVersion) after checking them.
    await upgradeAggregates(table, new Date(now));
    await countLocalMembers(target, table);
    return { users: DEMO_USERS, created: true };
  } finally {
    table.doc.destroy();
  }
}

// `npm run seed`: seed a running local stack on the default ports.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { tableName } = await import('../../lambdas/data/table/table-design.js');
  const { LOCAL_USER_POOL_ID } = await import('./cognito/index.js');
  const result = await seedDemoData({
    dynamoEndpoint: `http://127.0.0.1:${DEFAULT_PORTS.dynamodb}`,
    tableName: tableName(LOCAL_STAGE),
    cognitoEndpoint: `http://127.0.0.1:${DEFAULT_PORTS.cognito}`,
    userPoolId: LOCAL_USER_POOL_ID,
  });
  console.log(result.created ? 'Demo data seeded.' : 'Demo data already present; users ensured.');
}
