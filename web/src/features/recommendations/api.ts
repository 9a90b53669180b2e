/**
 * Recommendation hooks (routes `listRecommendations`, `updateRecommendation`). A status change always
 * carries a note (1–1000 chars, `UpdateRecommendationBody`); the API allows only the contract's
 * `RECOMMENDATION_TRANSITIONS` (409 INVALID_TRANSITION otherwise).
 */
import { RECOMMENDATION_TRANSITIONS } from '../../shared/lib/contract';
import type { OperationQuery, RecommendationStatus } from '../../shared/lib/contract';
import { useApi, useApiSWRInfinite } from '../../shared/lib/api-context';
import { useTenantQuery } from '../../shared/lib/tenant';
import { t as msg } from '../../shared/lib/messages';


/** Button text of each target status (the action that leads to it). */
export const ACTION_LABELS: Record<RecommendationStatus, string> = {
  get open() { return msg('actions.reopen'); },
  get accepted() { return msg('recommendations.labels.accept'); },
  get dismissed() { return msg('actions.dismiss'); },
  get done() { return msg('recommendations.labels.markAsDone'); },
};

/** Actions offered for a recommendation in `status` (the contract's transitions). */
export function actionsFor(status: RecommendationStatus): readonly RecommendationStatus[] {
  return RECOMMENDATION_TRANSITIONS[status];
}

/** The filters of the recommendation list (its query without tenant, page size and cursor). */
export type RecommendationFilters = Omit<OperationQuery<'listRecommendations'>, 'tenant' | 'limit' | 'cursor'>;

export function useRecommendations(filters: RecommendationFilters) {
  return useApiSWRInfinite('listRecommendations', { query: { ...useTenantQuery(), ...filters, limit: 50 } });
}

export function useUpdateRecommendation() {
  const api = useApi();
  const tenant = useTenantQuery();
  return (id: string, status: RecommendationStatus, note: string) =>
    api.call('updateRecommendation', { params: { id }, body: { status, note }, query: tenant });
}
