import { inject } from 'vitest';
import { defineSeamSuite } from './seam-suite.js';

defineSeamSuite('ioredis6-resp3', () => inject('redisUrl'));
