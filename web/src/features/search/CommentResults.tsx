/**
 * The "Comentarios" section of the search page: the tenant's public comments having every word of `q`
 * (`GET /search/comments`, docs/api.md#comment-search; internal notes are never answered), newest first, each
 * linked to its incident; first page of `pageSize`, "Cargar más" follows the cursor.
 */
import { Link } from 'react-router-dom';
import { useApiSWRInfinite } from '../../shared/lib/api-context';
import { formatDateTime } from '../../shared/lib/format';
import { ticketPath } from '../../shared/lib/links';
import { t as msg } from '../../shared/lib/messages';
import { ResultsSection } from './ResultsSection';

/** Characters of a comment shown in a result (the rest behind the link). */
const EXCERPT = 160;

export function CommentResults({ q, tenant, pageSize }: { q: string; tenant: { tenant?: string }; pageSize: number }) {
  const comments = useApiSWRInfinite('searchComments', { query: { ...tenant, q, limit: pageSize } });
  return (
    <ResultsSection id="sr-comments" title={msg('search.results.comments')} hint={msg('search.results.commentsHint')} list={comments} empty={msg('search.results.noCommentMatches')}>
      {comments.items.map((c) => (
        <li key={`${c.incidentId}/${c.id}`}>
          <Link to={ticketPath(c.incidentId, tenant.tenant ?? '')}>
            {c.incidentId} · {c.body.length > EXCERPT ? `${c.body.slice(0, EXCERPT)}…` : c.body}
          </Link>
          <span className="feed-meta">
            {c.author} · <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
          </span>
        </li>
      ))}
    </ResultsSection>
  );
}
