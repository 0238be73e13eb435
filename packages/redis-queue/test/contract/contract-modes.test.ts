import { inject } from 'vitest';
import { defineContractSuite } from './contract-suite.js';

// The contract in the other two handledRequests modes ('key', the default, runs on every flavour in
// contract.test.ts): one plain connection, and a Cluster, where the handled store's bucket and block keys (built in
// the scripts from the queue's hash tag) must stay on the queue's slot.
const url = () => inject('redisUrl');
defineContractSuite('ioredis6-resp3', url, 'full', { handledRequests: 'request' });
defineContractSuite('ioredis6-resp3', url, 'full', { handledRequests: 'bits' });
defineContractSuite('cluster-ioredis6', url, 'full', { handledRequests: 'bits' });
