/**
 * `/recommendations` (docs/portal.md#screens): the SOC's recommendations for the tenant, filtered by status and
 * priority (URL `?status=open&priority=high`). Each card offers the contract's next steps — accept,
 * dismiss, mark done, reopen — and each asks for a note (required by the API), then shows who changed
 * it, when, and the note.
 */
import { useState } from 'react';
import { RECOMMENDATION_PRIORITIES, RECOMMENDATION_STATUSES } from '../../shared/lib/contract';
import { FilterSelect, LoadMore, useFilterParams } from '../../shared/ui/lists';
import { EmptyState, ErrorState, LoadingState, PageHeader } from '../../shared/ui/states';
import '../../shared/ui/screens.css';
import { useRecommendations } from './api';
import type { RecommendationFilters } from './api';
import { enumLabel, RECOMMENDATION_STATUS_LABELS } from '../../shared/lib/enum-labels';
import { t as msg } from '../../shared/lib/messages';
import { RecommendationCard } from './RecommendationCard';

/** URL → `GET /recommendations` filters (unknown values dropped). */
export function recommendationQuery(params: URLSearchParams): RecommendationFilters {
  const q: RecommendationFilters = {};
  const s = params.get('status');
  if (s && (RECOMMENDATION_STATUSES as readonly string[]).includes(s)) q.status = s;
  const p = params.get('priority');
  if (p && (RECOMMENDATION_PRIORITIES as readonly string[]).includes(p)) q.priority = p;
  return q;
}

export function RecommendationsPage() {
  const { params, set } = useFilterParams();
  const query = recommendationQuery(params);
  const list = useRecommendations(query);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  return (
    <section>
      <PageHeader title={msg('menu.recommendations')} />
      <form className="card filters" aria-label={msg('recommendations.page.filterRecommendations')} onSubmit={(e) => e.preventDefault()}>
        <FilterSelect id="rec-status" label={msg('recommendations.page.status')} value={String(query.status ?? '')} options={RECOMMENDATION_STATUSES.map((s) => [s, RECOMMENDATION_STATUS_LABELS[s]] as const)} onChange={(v) => set('status', v)} />
        <FilterSelect id="rec-priority" label={msg('recommendations.page.priority')} all={msg('recommendations.page.all')} value={String(query.priority ?? '')} options={RECOMMENDATION_PRIORITIES.map((p) => [p, enumLabel('recommendationPriority', p)] as const)} onChange={(v) => set('priority', v)} />
      </form>
      {notice && (
        <div className={notice.ok ? 'notice-ok' : 'error-state'} role={notice.ok ? 'status' : 'alert'}>
          <p>{notice.text}</p>
        </div>
      )}
      {list.error && !list.data ? (
        <ErrorState error={list.error} onRetry={() => void list.mutate()} />
      ) : list.isLoading || !list.data ? (
        <LoadingState />
      ) : list.items.length === 0 && !list.hasMore ? (
        <EmptyState>{Object.keys(query).length ? msg('recommendations.page.noMatches') : msg('recommendations.page.noRecommendations')}</EmptyState>
      ) : (
        <>
          <ul className="rec-list">
            {list.items.map((r) => (
              <li key={r.id}>
                <RecommendationCard rec={r} onChanged={(n) => { setNotice(n); void list.mutate(); }} />
              </li>
            ))}
          </ul>
          <LoadMore list={list} />
        </>
      )}
    </section>
  );
}
