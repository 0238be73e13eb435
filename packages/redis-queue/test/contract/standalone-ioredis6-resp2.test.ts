import { inject } from 'vitest';
import { defineContractSuite } from './contract-suite.js';

defineContractSuite('ioredis6-resp2', () => inject('redisUrl'), 'full');
