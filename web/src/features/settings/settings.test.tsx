import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderSignedIn } from '../../shared/lib/test-utils';
import { SettingsPage } from './SettingsPage';
import { PREFERENCES_KEY } from './preferences';

describe('settings page', () => {
  afterEach(() => localStorage.clear());

  it('lays the five layout toggles out one per line, each with its label and a hint that describes it', async () => {
    renderSignedIn(<SettingsPage />, { path: '/settings' });
    const group = await screen.findByRole('group', { name: 'Diseño' });
    const rows = within(group).getAllByRole('listitem');
    expect(rows).toHaveLength(5);
    const labels = ['Menú lateral contraído', 'Diseño en caja', 'Pie de página fijo', 'Altura completa', 'Ancho completo'];
    rows.forEach((row, i) => {
      const box = within(row).getByRole('checkbox', { name: labels[i] });
      const hint = document.getElementById(box.getAttribute('aria-describedby') ?? '');
      expect(hint && row.contains(hint)).toBe(true);
      expect(hint?.textContent?.length).toBeGreaterThan(20);
    });
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Ancho completo' }));
    expect(JSON.parse(localStorage.getItem(PREFERENCES_KEY) ?? '{}')).toMatchObject({ fullWidth: true });
  });
});
