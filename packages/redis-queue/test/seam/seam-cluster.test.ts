import { inject } from 'vitest';
import { defineSeamSuite } from './seam-suite.js';

defineSeamSuite('cluster-ioredis6', () => inject('redisUrl'));
