import { inject } from 'vitest';
import { defineContractSuite } from './contract-suite.js';

// One file for every connection flavour: Crawlee and ioredis are imported once (imports dominate on 2 cores).
const url = () => inject('redisUrl');
defineContractSuite('ioredis6-resp3', url, 'full');
defineContractSuite('ioredis6-resp2', url, 'full');
defineContractSuite('ioredis5', url, 'full');
// Fresh local 3-master Redis Clusters (test-utils), through ioredis 6's and ioredis 5's Cluster clients.
defineContractSuite('cluster-ioredis6', url, 'full');
defineContractSuite('cluster-ioredis5', url, 'full');
// The same contract on a sharded queue (shards: 12): on the tests' Redis and on a fresh local 3-master cluster, where
// the 12 shards sit on all three masters.
defineContractSuite('ioredis6-resp3', url, 'full', 12);
defineContractSuite('cluster-ioredis6', url, 'full', 12);
