// TEMPORARY (removed when wt-polite is merged): the politeness API agreed with the polite engineer (issue 16),
// declared here so the example builds against it before the queue side lands.
import 'crawlee-redis-queue';

declare module 'crawlee-redis-queue' {
  interface PolitenessOptions {
    minDelaySecs?: number;
    maxConcurrencyPerHost?: number;
    hostKey?: (url: string) => string;
    retryBackoff?: { baseSecs?: number; factor?: number; maxSecs?: number } | false;
  }
  interface PolitenessStats {
    hosts: number;
    hostsWaiting: number;
    longestWaitSecs: number;
    inFlight: Record<string, number>;
  }
  interface OpenRedisRequestQueueOptions {
    politeness?: PolitenessOptions;
  }
  interface RedisRequestQueue {
    backOffHost(host: string, delaySecs: number): Promise<void>;
    hostKeyOf(url: string): string;
    politenessStats(): Promise<PolitenessStats>;
  }
}
