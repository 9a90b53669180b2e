import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ApiError } from '../lib/api';
import { ErrorState } from './states';

// A 503 SERVICE_UNAVAILABLE (DynamoDB throttling or unreachable; docs/api.md#errors) shows the error state
// with its Spanish message, the request id and "Reintentar".
describe('ErrorState for a 503', () => {
  it('offers "Reintentar" with the Spanish message and the request id', () => {
    const error = new ApiError({ kind: 'server', status: 503, code: 'SERVICE_UNAVAILABLE', requestId: 'req-9', message: 'GET /incidents: HTTP 503' });
    const onRetry = vi.fn();
    render(<ErrorState error={error} onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('El servicio no está disponible en este momento');
    expect(screen.getByText(/req-9/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
