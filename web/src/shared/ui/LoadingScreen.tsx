import { I18n } from 'aws-amplify/utils';

/** Full-page busy indicator (start-up, lazy chunks). Announced politely to screen readers. */
export function LoadingScreen({ label = I18n.get('Loading…') }: { label?: string }) {
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
