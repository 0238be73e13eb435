import { inject } from 'vitest';
import { defineContractSuite } from './contract-suite.js';

defineContractSuite('ioredis5', () => inject('redisUrl'), 'full');
