import { inject } from 'vitest';
import { defineSeamSuite } from './seam-suite.js';

const url = () => inject('redisUrl');
defineSeamSuite('ioredis6-resp3', url);
// A fresh local 3-master Redis Cluster: plan keys must share the queue's hash tag.
defineSeamSuite('cluster-ioredis6', url);
