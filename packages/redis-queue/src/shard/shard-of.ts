// The shard rule is written once, in redis-kit, because crawlee-bloom-dedup routes a split dedup store's keys with
// the same rule (a request's dedup key must meet the part in its shard's slot).
export { shardKeyOf, shardOf, shardOfKey, type ShardBy } from '@crawlee-distributed/redis-kit';
