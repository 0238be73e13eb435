import { defineConfig } from 'vitest/config';

// The kit's own tests need no Redis (the script registry is proven on real servers by the packages that use it);
// test-utils depends on the kit, so the kit cannot use test-utils' shared config.
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], fileParallelism: false },
});
