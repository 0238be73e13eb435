import { createHash, randomUUID } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import type {} from '@crawlee-distributed/test-utils/global-setup';
import { inject } from 'vitest';

/** 40-hex SHA-1 fingerprint of `<prefix>-<i>`, the test data of notes/bloom-redis.md. */
export function fp(prefix: string, i: number): string {
  return createHash('sha1').update(`${prefix}-${i}`).digest('hex');
}

export function fps(prefix: string, from: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => fp(prefix, from + i));
}

/** A random key prefix per test, so suites sharing 6379 never meet. */
export function testKey(name: string): string {
  return `test:bloom-dedup:${name}:${randomUUID()}`;
}

export function redisUrl(): string {
  return inject('redisUrl');
}

/** Connects to the tests' Redis; RESP3 (ioredis 6 default) unless protocol 2 is asked. */
export function connect(protocol: 2 | 3 = 3): Redis {
  return new Redis(redisUrl(), { protocol });
}

/** Deletes every key containing `fragment` (SCAN, never FLUSH*). */
export async function deleteKeys(redis: Redis | Cluster, fragment: string): Promise<void> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `*${fragment}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) await node.del(key);
    } while (cursor !== '0');
  }
}

/** Batches of `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
