import type { RateLimitConfig } from '../store/records.js';

/**
 * Two leaky buckets per token (part 8: complexity-based, leaky-bucket): one counts requests
 * (X-RateLimit-*), one counts complexity points (X-Complexity-*). A request that would
 * overflow either is refused with the time until it would fit.
 */
export interface BucketReading {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is empty again. */
  reset: number;
  complexityLimit: number;
  complexityRemaining: number;
  complexityReset: number;
  cost: number;
  /** Seconds to wait before this request would fit (when refused). */
  retryAfter: number;
}

export class LeakyBuckets {
  private requests = 0;
  private complexity = 0;
  private last: number;

  constructor(
    private config: RateLimitConfig,
    now: number,
  ) {
    this.last = now;
  }

  reconfigure(config: RateLimitConfig): void {
    this.config = config;
    this.requests = Math.min(this.requests, config.requests);
    this.complexity = Math.min(this.complexity, config.complexity);
  }

  take(cost: number, now: number): BucketReading {
    const c = this.config;
    const elapsed = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.requests = Math.max(0, this.requests - elapsed * c.requestsPerSecond);
    this.complexity = Math.max(0, this.complexity - elapsed * c.complexityPerSecond);
    const fitsRequests = this.requests + 1 <= c.requests;
    const fitsComplexity = this.complexity + cost <= c.complexity;
    const allowed = fitsRequests && fitsComplexity;
    let retryAfter = 0;
    if (allowed) {
      this.requests += 1;
      this.complexity += cost;
    } else {
      const waitRequests = fitsRequests ? 0 : (this.requests + 1 - c.requests) / c.requestsPerSecond;
      const waitComplexity = fitsComplexity ? 0 : (this.complexity + cost - c.complexity) / c.complexityPerSecond;
      retryAfter = Math.max(1, Math.ceil(Math.max(waitRequests, waitComplexity)));
    }
    return {
      allowed,
      limit: c.requests,
      remaining: Math.max(0, Math.floor(c.requests - this.requests)),
      reset: Math.ceil(this.requests / c.requestsPerSecond),
      complexityLimit: c.complexity,
      complexityRemaining: Math.max(0, Math.floor(c.complexity - this.complexity)),
      complexityReset: Math.ceil(this.complexity / c.complexityPerSecond),
      cost,
      retryAfter,
    };
  }
}

/** Complexity cost per operation: resource-intensive endpoints cost more. */
export const COMPLEXITY_COST: Readonly<Record<string, number>> = {
  searchNotes: 10,
  getRelatedNotes: 10,
  searchCollections: 5,
  listNotes: 3,
  listCollections: 2,
  askAttachmentQuestion: 20,
};

/** The default: far above what one client can send, so only a configured limit is ever reached. */
export const GENEROUS_RATE_LIMIT: RateLimitConfig = {
  requests: 1_000_000,
  requestsPerSecond: 1_000_000,
  complexity: 10_000_000,
  complexityPerSecond: 10_000_000,
};
