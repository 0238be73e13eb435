#!/usr/bin/env node
// A local Redis Cluster to try `--shards` on (README: "One crawl on a Redis Cluster"): 3 masters (or MASTERS=n) on
// free loopback ports, no persistence, started with test-utils' startRedisCluster (redis-server + redis-cli
// --cluster create). Prints the --redis value and waits; Ctrl-C (or SIGTERM) stops every node by PID and deletes
// their data directories. Needs redis-server and redis-cli (apt-get install redis-server).
import process from 'node:process';
import { setInterval } from 'node:timers';
import { startRedisCluster } from '@crawlee-distributed/test-utils';

const masters = Number(process.env.MASTERS ?? 3);
const cluster = await startRedisCluster({ masters });
const urls = cluster.nodes.map((n) => `redis://${n.host}:${n.port}`);
process.stdout.write(
  `Redis Cluster of ${masters} masters is up: ${urls.join(' ')}\n` +
    `Crawl through it (from the repository root, in another terminal):\n` +
    `  REDIS_URL=${urls.join(',')} npm start -- --demo --shards 12 --workers 3\n` +
    `Ctrl-C stops the cluster.\n`,
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await cluster.stop();
  process.stdout.write('cluster stopped\n');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
setInterval(() => undefined, 1 << 30);
