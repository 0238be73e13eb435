export { freePort } from './free-port.js';
export { INSTALL_HINT, RedisUnavailableError } from './errors.js';
export { isAlive, sleep, stopPid } from './process-tools.js';
export {
  redisCliBin,
  redisServerBin,
  startRedisServer,
  waitForPong,
  type RedisServerHandle,
  type StartRedisServerOptions,
} from './redis-server.js';
export { generateTlsCertificates, type TlsMaterial } from './tls-certificates.js';
export { startRedisCluster, type RedisClusterHandle, type StartRedisClusterOptions } from './redis-cluster.js';
export { pingRedis, redisUrlForTests, stopTestRedis } from './redis-url.js';
export {
  clusterTopology,
  killMasterAndWaitForFailover,
  masterOfSlot,
  parseClusterNodes,
  type ClusterNodeEntry,
  type FailoverResult,
} from './cluster-failover.js';
