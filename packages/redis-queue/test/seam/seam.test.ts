import { inject } from 'vitest';
import { defineSeamSuite } from './seam-suite.js';

const url = () => inject('redisUrl');
defineSeamSuite('ioredis6-resp3', url);
// A fresh local 3-master Redis Cluster: plan keys must share the queue's hash tag.
defineSeamSuite('cluster-ioredis6', url);
// A sharded queue on one standalone Redis: the filter joins every shard's add script (the store's keys are on the
// same server; on a Cluster they would be on other slots, and withDedup filters in front of the queue instead).
defineSeamSuite('ioredis6-resp3', url, 12);
