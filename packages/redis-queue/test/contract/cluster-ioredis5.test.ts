import { inject } from 'vitest';
import { defineContractSuite } from './contract-suite.js';

// The same contract through ioredis 5's Cluster client, on its own fresh 3-master cluster.
defineContractSuite('cluster-ioredis5', () => inject('redisUrl'), 'full');
