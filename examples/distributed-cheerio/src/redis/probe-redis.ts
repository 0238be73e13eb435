import { Redis } from 'ioredis';

/**
 * What one connection attempt to a Redis URL found. Only `refused` means "nobody listens there"; every other outcome
 * is an answer (or a half answer) from something at that address, which the caller must report, never replace.
 */
export type RedisProbe =
  /** `cluster`: the server is a Redis Cluster node (`cluster_enabled:1`); `clusterState`: its `cluster_state`. */
  | { kind: 'ok'; cluster: boolean; clusterState?: string }
  | { kind: 'refused'; detail: string }
  | { kind: 'auth'; detail: string }
  | { kind: 'noperm'; detail: string }
  | { kind: 'database'; detail: string; db: number }
  | { kind: 'tls'; detail: string }
  | { kind: 'timeout'; detail: string }
  | { kind: 'unresolved'; detail: string; host: string }
  | { kind: 'closed'; detail: string };

/** Node's TLS failure codes (OpenSSL errors are `ERR_SSL_*`, certificate checks have their own names). */
const TLS_CODES = /^(ERR_SSL_|ERR_TLS_|EPROTO$|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_)/;

function databaseOf(url: string): number {
  try {
    const path = new URL(url).pathname.replace(/^\//, '');
    return /^\d+$/.test(path) ? Number(path) : 0;
  } catch {
    return 0;
  }
}

/** getaddrinfo's codes for a host name that does not resolve (no such name, or no answer from the resolver). */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

function classify(errors: Array<Error & { code?: string }>, tls: boolean, timeoutMs: number, url: string): RedisProbe {
  const replies = errors.map((e) => e.message);
  const auth = replies.find((m) => /^(NOAUTH|WRONGPASS)\b/.test(m));
  if (auth !== undefined) return { kind: 'auth', detail: auth };
  const noperm = replies.find((m) => /^NOPERM\b/.test(m));
  if (noperm !== undefined) return { kind: 'noperm', detail: noperm };
  const tlsError = errors.find((e) => e.code !== undefined && TLS_CODES.test(e.code));
  if (tlsError !== undefined) return { kind: 'tls', detail: `${tlsError.code}: ${tlsError.message}` };
  const dns = errors.find((e) => e.code !== undefined && DNS_CODES.has(e.code));
  // Nothing was reached at all: the host name does not resolve (a typo, or a name only another network knows).
  if (dns !== undefined) return { kind: 'unresolved', host: hostOf(url), detail: `${dns.code}: the host name does not resolve` };
  if (errors.some((e) => e.code === 'ECONNREFUSED')) return { kind: 'refused', detail: 'connection refused (ECONNREFUSED)' };
  if (errors.some((e) => e.code === 'ETIMEDOUT')) {
    // A plain Redis never answers a TLS ClientHello: rediss:// on a plain port times out in the handshake.
    return tls
      ? { kind: 'tls', detail: `no TLS handshake within ${timeoutMs / 1000} s: is TLS enabled on that port?` }
      : { kind: 'timeout', detail: `no answer within ${timeoutMs / 1000} s` };
  }
  const other = errors.find((e) => e.code !== undefined) ?? errors[0];
  const detail = other === undefined ? 'the server closed the connection without an answer' : `${other.code ?? 'error'}: ${other.message}`;
  return { kind: 'closed', detail: tls ? detail : `${detail}; if the server speaks TLS, use rediss://` };
}

/**
 * Whether the server is a Redis Cluster node, from `INFO cluster` (`cluster_enabled:1`), and then its
 * `cluster_state` (`ok`, or `fail` while slots are not served). A user whose ACL refuses INFO is taken for a
 * standalone server: the crawl then reports the first `MOVED` reply, should it be a Cluster after all.
 */
async function clusterOf(client: Redis): Promise<{ cluster: boolean; clusterState?: string }> {
  let info: string;
  try {
    info = await client.info('cluster');
  } catch {
    return { cluster: false };
  }
  if (!/^cluster_enabled:1\b/m.test(info)) return { cluster: false };
  try {
    const state = /^cluster_state:(\w+)/m.exec(String(await client.call('CLUSTER', 'INFO')))?.[1];
    return state === undefined ? { cluster: true } : { cluster: true, clusterState: state };
  } catch {
    return { cluster: true };
  }
}

/**
 * One connection attempt: connect (with the URL's credentials), `PING`, `INFO cluster` (is it a Cluster node?), and
 * `SELECT` of the URL's database. No reconnect loop, no error events left behind.
 *
 * @param url - `redis://` or `rediss://` URL
 * @param timeoutMs - connect timeout in milliseconds
 * @returns what was found (see {@link RedisProbe})
 */
export async function probeRedis(url: string, timeoutMs = 1_500): Promise<RedisProbe> {
  const tls = url.startsWith('rediss:');
  const errors: Array<Error & { code?: string }> = [];
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    // The ready check runs INFO, which a restricted user may not run; PING below decides.
    enableReadyCheck: false,
  });
  client.on('error', (error: Error) => errors.push(error));
  try {
    await client.connect();
    await client.ping();
    const cluster = await clusterOf(client);
    const db = databaseOf(url);
    if (db !== 0) {
      if (cluster.cluster) return { kind: 'database', db, detail: 'a Redis Cluster has only database 0' };
      try {
        await client.select(db);
      } catch (error) {
        return { kind: 'database', db, detail: (error as Error).message };
      }
    }
    return errors.length === 0 ? { kind: 'ok', ...cluster } : classify(errors, tls, timeoutMs, url);
  } catch (error) {
    return classify([...errors, error as Error], tls, timeoutMs, url);
  } finally {
    client.disconnect();
  }
}
