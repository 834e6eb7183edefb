/**
 * What every diff of one merge shares: the `diff` package's diff function and the time to give up
 * at, and the reasons a merge gives up for lack of time or room.
 */

/** What every diff of one merge shares: the diff function and the time to give up at. */
export interface Budget {
  /** The `diff` package's `diffArrays`, loaded by the first merge. */
  diffArrays: typeof import("diff").diffArrays;
  /** When to give up, in `Date.now()` milliseconds. */
  deadline: number;
}

/** The reason when a merge runs out of time. */
export const TIMED_OUT = "the file is too large or changed too much to merge in time";
/** The reason when a side changed more than git's Myers diff, or the band search, can follow. */
export const TOO_LARGE = "a side changed too many lines to merge the way git does";
