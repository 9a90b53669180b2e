/**
 * The mark of an internal work note in the incident timeline (docs/api.md#internal-notes): a label
 * "Nota interna · solo SOC" next to the author. Only staff ever receive notes, so only staff see it.
 */
import { t as msg } from '../../shared/lib/messages';
import './internal-notes.css';

export function InternalNoteLabel() {
  return <span className="internal-note-label">{msg('incidents.notes.internalLabel')}</span>;
}
