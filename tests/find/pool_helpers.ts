/**
 * What find's tests need of the engine beyond its calls: a whole listing searched as the engine
 * plans it, the planner's timings set for a while, and what a kept listing holds.
 */
import type { MatcherSpec } from "../../lib/find/scan.ts";
import type { SearchOutcome } from "../../lib/find/collect.ts";
import type { SearchPool, SearchRequest } from "../../lib/find/search.ts";
import type { PoolListing } from "../../lib/find/pool_listing.ts";
import { planListing, planTuning } from "../../lib/find/plan.ts";
import { keptListing } from "../../lib/find/engine.ts";
import { sketchWeighed } from "../../lib/find/plan.ts";

/** Searches the whole `listing` for `maxResults` lines, planned as the engine plans it. */
export function searchAll(
  pool: SearchPool,
  root: string,
  listing: PoolListing,
  spec: MatcherSpec,
  maxResults: number,
  options: Omit<SearchRequest, "root" | "listing" | "spec" | "maxResults" | "batch"> = {},
): Promise<SearchOutcome> {
  const batch = () => planListing(listing, spec, options.glob);
  return pool.search({ root, listing, spec, maxResults, ...options, batch });
}

/** Sets `planTuning[key]` to `value` until the returned function puts it back. */
export function tune<K extends keyof typeof planTuning>(
  key: K,
  value: (typeof planTuning)[K],
): () => void {
  const before = planTuning[key];
  planTuning[key] = value;
  return () => void (planTuning[key] = before);
}

/** How many files of the listing kept for `root` have their sketches made (`sketch.ts`). */
export function sketchedCount(root: string, useGit = true): number {
  const listing = keptListing(root, useGit);
  if (!listing?.sketch) return 0;
  const heads = new Uint8Array(listing.sketch, 0, listing.names.length);
  return heads.reduce((n, head) => n + (head & 1), 0);
}

/** Whether the listing kept for `root` is weighed (git's sizes, or its sketches' made). */
export function weighed(root: string, useGit = true): boolean {
  const listing = keptListing(root, useGit);
  return listing !== undefined && (listing.weights !== undefined || sketchWeighed(listing));
}
