import { defineConfig } from 'vitest/config';

// Tests that read the production build in dist/ (run after `npm run build`).
export default defineConfig({
  test: {
    include: ['tests/build/**/*.test.ts'],
    environment: 'node',
  },
});
