import type { ApiError } from '../../shared/lib/api';
import { ErrorState, LoadingState } from '../../shared/ui/states';

/** What `Block` waits for: an SWR answer's error, loading flag, data and reload. */
export interface Loadable {
  error: ApiError | undefined;
  isLoading: boolean;
  data: unknown;
  mutate: () => unknown;
}

/** Renders `children` once `swr` has data; otherwise its loading or error state. */
export function Block({ swr, rows = 2, children }: { swr: Loadable; rows?: number; children: () => React.ReactNode }) {
  if (swr.error && !swr.data) return <ErrorState error={swr.error} onRetry={() => void swr.mutate()} />;
  if (!swr.data) return <LoadingState rows={rows} />;
  return <>{children()}</>;
}
