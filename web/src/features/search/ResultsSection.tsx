/**
 * One section of the search page (comments, devices by IP, alarms, Office 365 users): a card with its heading
 * (`id` labels the section), a one-line hint, and the matches as a feed list inside `ListFrame` (loading, error
 * with "Reintentar", `empty` when nothing matches, "Cargar más" while the cursor goes on). `children` are the
 * list's `<li>` items.
 */
import type { ReactNode } from 'react';
import { ListFrame, type ListState } from '../../shared/ui/lists';

export function ResultsSection({ id, title, hint, list, empty, children }: { id: string; title: string; hint: string; list: ListState; empty: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="small muted">{hint}</p>
      <ListFrame list={list} empty={empty}>
        <ul className="feed">{children}</ul>
      </ListFrame>
    </section>
  );
}
