/**
 * What the scheduled per-tenant e-mail jobs share (the daily digest, `notification-digest.ts`, and the monthly
 * report, `monthly-report-mail.ts`): walking the tenant registry one page at a time with one tenant's failure
 * kept to that tenant, and picking the tenant members a job writes to.
 */
import type { Recipient } from './notifications.js';

/** One page of registered tenant ids (Query `PK = TENANTS`) and the cursor of the next, if any. */
export type TenantPage = (cursor?: string) => Promise<{ tenantIds: string[]; cursor?: string | undefined }>;

/**
 * Runs `each` for every registered tenant, page after page, one tenant at a time. A tenant whose `each` throws
 * counts in `outcome.open` (a later run must come back to it) and goes to `onTenantError`; the run goes on with
 * the next tenant. `outcome.tenants` counts the tenants visited.
 * @throws what `tenantPage` throws (the registry's storage errors end the run)
 */
export async function forEachTenant(
  tenantPage: TenantPage,
  each: (tenantId: string) => Promise<void>,
  outcome: { tenants: number; open: number },
  onTenantError?: (tenantId: string, e: unknown) => void,
): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await tenantPage(cursor);
    for (const tenantId of page.tenantIds) {
      outcome.tenants++;
      try {
        await each(tenantId);
      } catch (e) {
        outcome.open++;
        onTenantError?.(tenantId, e);
      }
    }
    cursor = page.cursor;
  } while (cursor);
}

/**
 * The members a job writes to: enabled, with an e-mail address, and in `subscribers` (their stored choice, by
 * `sub`) — each once (a group listing may repeat a member across pages), in `sub` order so reruns go the same way.
 */
export function subscribedMembers<P>(members: readonly Recipient[], subscribers: ReadonlyMap<string, P>): Array<{ member: Recipient; prefs: P }> {
  const seen = new Set<string>();
  const out: Array<{ member: Recipient; prefs: P }> = [];
  for (const member of [...members].sort((a, b) => a.sub.localeCompare(b.sub))) {
    const prefs = subscribers.get(member.sub);
    if (prefs === undefined || !member.enabled || !member.email || seen.has(member.sub)) continue;
    seen.add(member.sub);
    out.push({ member, prefs });
  }
  return out;
}
