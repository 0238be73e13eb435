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
// The contract where it applies with politeness on (no delay, no limit and no retry backoff, so it is about the
// structures: a retried request's not-before time is a politeness rule, tested in test/politeness/ with the
// others): the polite scripts keep every guarantee, also on a Cluster.
defineContractSuite('ioredis6-resp3', url, 'full', { politeness: { retryBackoff: false } });
defineContractSuite('cluster-ioredis6', url, 'core', { politeness: { retryBackoff: false } });
// The same contract on a sharded queue (shards: 12): on the tests' Redis and on a fresh local 3-master cluster, where
// the 12 shards sit on all three masters.
defineContractSuite('ioredis6-resp3', url, 'full', { shards: 12 });
defineContractSuite('cluster-ioredis6', url, 'full', { shards: 12 });
