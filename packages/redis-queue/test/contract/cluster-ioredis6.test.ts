import { inject } from 'vitest';
import { defineContractSuite } from './contract-suite.js';

// A fresh local 3-master Redis Cluster (test-utils), reached through ioredis' Cluster client.
defineContractSuite('cluster-ioredis6', () => inject('redisUrl'), 'full');
