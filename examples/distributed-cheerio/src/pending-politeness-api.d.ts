// TEMPORARY (removed when wt-polite is merged): the politeness API agreed with the polite engineer (issue 16), in
// the shapes of wt-polite's work in progress, declared here so the example builds before the queue side lands.
import 'crawlee-redis-queue';

declare module 'crawlee-redis-queue' {
  interface PolitenessOptions {
    minDelaySecs?: number;
    maxConcurrencyPerHost?: number;
    hostKey?: (url: string) => string;
    retryBackoff?: { baseSecs?: number; factor?: number; maxSecs?: number } | false;
  }
  interface PolitenessStats {
    enabled: boolean;
    minDelaySecs: number;
    maxConcurrencyPerHost: number;
    hosts: number;
    hostsWaiting: number;
    longestWaitSecs: number;
    delayed: number;
    inFlight: Record<string, number>;
  }
  interface OpenRedisRequestQueueOptions {
    politeness?: PolitenessOptions;
  }
  interface RedisRequestQueue {
    backOffHost(host: string, delaySecs: number): Promise<void>;
    hostKeyOf(url: string): string;
    politenessStats(options?: { top?: number }): Promise<PolitenessStats>;
  }
  interface RedisQueueAdmin {
    politenessStats(options?: { top?: number }): Promise<PolitenessStats>;
  }
}
