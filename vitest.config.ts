/**
 * Vitest projects (one `npm test` runs them all):
 *  - unit:        pure functions and handlers with fakes at the edges (test/unit)
 *  - infra:       template assertions on the synthesized CDK stacks (test/infra)
 *  - integration: real local engines (dynoxide, cognito-local + compat layer, local gateway) (test/integration)
 *  - web:         portal components in jsdom (web/src/**\/*.test.tsx)
 */
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['web/src/test-setup.ts'],
        },
      },
    ],
  },
});
