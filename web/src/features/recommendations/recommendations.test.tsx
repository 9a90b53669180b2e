import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { fakeApi, ME_ACME, renderSignedIn } from '../../shared/lib/test-utils';
import type { Recommendation } from '../../shared/lib/contract';
import type { CallInput } from '../../shared/lib/api';
import { RecommendationsPage, recommendationQuery } from './RecommendationsPage';

const REC: Recommendation = {
  id: 'rec-mfa',
  tenantId: 'acme',
  title: 'Activar MFA para administradores',
  rationale: 'Tres cuentas sin MFA.',
  priority: 'high',
  category: 'identidad',
  status: 'open',
  createdAt: '2026-03-01T10:00:00.000Z',
  statusNote: null,
  statusChangedBy: null,
  statusChangedAt: null,
};

describe('recommendations', () => {
  it('filters by status and priority from the URL', () => {
    expect(recommendationQuery(new URLSearchParams('status=open&priority=high'))).toEqual({ status: 'open', priority: 'high' });
    expect(recommendationQuery(new URLSearchParams('status=x&priority=urgent'))).toEqual({});
  });

  it('offers the contract transitions and sends the status with a required note', async () => {
    let current = REC;
    const patch = ({ body }: CallInput<'updateRecommendation'>) => {
      current = { ...current, status: body.status, statusNote: body.note, statusChangedBy: 'ana@acme.test', statusChangedAt: '2026-03-02T10:00:00.000Z' };
      return current;
    };
    const api = fakeApi({ getMe: ME_ACME, listRecommendations: () => ({ items: [current], nextCursor: null }), updateRecommendation: patch });
    renderSignedIn(
      <Routes>
        <Route path="/recommendations" element={<RecommendationsPage />} />
      </Routes>,
      { path: '/recommendations', api },
    );
    expect(await screen.findByRole('button', { name: 'Aceptar: Activar MFA para administradores' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Descartar: Activar MFA para administradores' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Marcar como hecha/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Aceptar: Activar MFA para administradores' }));
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar: Aceptar' }));
    expect(await screen.findByText('Escribe una nota.')).toBeTruthy();
    expect(api.call).not.toHaveBeenCalledWith('updateRecommendation', expect.anything());
    fireEvent.change(screen.getByLabelText('Nota para «Aceptar»'), { target: { value: 'Lo hacemos esta semana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar: Aceptar' }));
    await waitFor(() =>
      expect(api.call).toHaveBeenCalledWith('updateRecommendation', { params: { id: 'rec-mfa' }, body: { status: 'accepted', note: 'Lo hacemos esta semana' }, query: { tenant: 'acme' } }),
    );
    expect(await screen.findByRole('button', { name: 'Marcar como hecha: Activar MFA para administradores' })).toBeTruthy();
    expect(screen.getByText(/Aceptada por ana@acme.test/)).toBeTruthy();
  });
});
