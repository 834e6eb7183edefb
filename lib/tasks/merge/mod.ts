/**
 * Three-way merge of one file, the way `git merge-file` does it at its default settings: the
 * change base → ours is put onto theirs line by line, and a clean result is git's, byte for byte.
 *
 * Lines keep their endings: a CRLF file stays CRLF, and a last line without a newline differs
 * from the same line with one. Each side is diffed against the base with the `diff` package, on
 * the lines git's own diff works on (it sets aside the common start and end, lines with no equal
 * on the other side, and lines with many equals there amid such lines); the changes are then
 * slid over equal lines as git slides them. Git's merge rules follow: the very same change on
 * both sides is taken once; changes whose base ranges overlap or merely touch (no unchanged base
 * line between them) conflict, unless the two sides of the whole stretch read the same.
 *
 * Repeated lines can often be paired with the base in several equally short ways, and git's
 * Myers diff may pick another than the `diff` package. So every pairing of git's cost is
 * considered (a dynamic program over the band of the edit graph such pairings stay in): where
 * only one side may change lines, any pairing gives the same result; where both sides may, the
 * pairing there must be the only one, or all of them (at most 64) must come out the same once
 * slid as git slides them. Otherwise the merge is a conflict.
 *
 * More conservative than git in two classes, both reported as conflicts:
 * - "ambiguous pairing" (reason ends "…where repeated lines pair up in more than one way"): both
 *   sides changed lines near each other where repeated lines pair up in ways git may settle
 *   differently. In a fuzz run of 5,000 random merges against git 2.39 (tests/tasks/merge_test.ts,
 *   `MERGE_FUZZ=5000`) this turned 83 of git's 2,466 clean merges into conflicts (79 of 2,424 with
 *   `MERGE_FUZZ_SEED=7`); no clean result differed from git's.
 * - "large change" ("a side changed too many lines to merge the way git does"): more than 500
 *   changes among the lines git's diff works on (new lines found nowhere in the base do not
 *   count), where git's Myers diff may stop short of the shortest diff, or a band too large to
 *   search. Not met in the fuzz run.
 *
 * The folder, in the order a merge runs: `lines.ts` (lines and git's preparation of them),
 * `side.ts` (one side's diff against the base) over `graph.ts` (the band of pairings of git's
 * cost) and `slide.ts` (git's slides), `regions.ts` (the merge's stretches and its text),
 * `pairing.ts` (the check of ambiguous pairings), `conflicts.ts` (the count and reason of a
 * conflict); `budget.ts` holds what every diff of one merge shares.
 */
import { decodeText, sameBytes } from "../../text.ts";
import { conflictCount, conflictReason } from "./conflicts.ts";
import { lineIds, splitLines } from "./lines.ts";
import { findSpots } from "./pairing.ts";
import { buildRegions, mergedText, sideChanges } from "./regions.ts";
import { diffSide } from "./side.ts";

/** The outcome of a three-way merge of one file. */
export type MergeResult =
  /** `bytes` null: the file is absent in the result. */
  | { clean: true; bytes: Uint8Array | null }
  /** `reason`: one short sentence for a human, e.g. "both sides changed lines 12-14". */
  | { clean: false; conflicts: number; reason: string };

/** The outcome of {@linkcode mergeText}. */
export type TextMergeResult =
  | { clean: true; text: string }
  | { clean: false; conflicts: number; reason: string };

/** Options of {@linkcode mergeBytes} and {@linkcode mergeText}. */
export interface MergeOptions {
  /** Time the merge may spend diffing before it gives up and reports a conflict; 3000 ms. */
  timeoutMs?: number;
}

const MERGE_TIMEOUT_MS = 3000;

/**
 * Merges the change base → ours onto theirs (all three may be null: the file absent). Identical
 * inputs settle it byte for byte, binary included; otherwise a side that is absent or binary
 * while both sides changed the file is a conflict, and text goes to {@linkcode mergeText}.
 */
export async function mergeBytes(
  base: Uint8Array | null,
  ours: Uint8Array | null,
  theirs: Uint8Array | null,
  options: MergeOptions = {},
): Promise<MergeResult> {
  if (sameBytes(ours, theirs) || sameBytes(ours, base)) return { clean: true, bytes: theirs };
  if (sameBytes(theirs, base)) return { clean: true, bytes: ours };
  if (ours === null || theirs === null) {
    return _conflict(1, "one side deleted the file while the other changed it");
  }
  if (base === null) return _conflict(1, "both sides created the file with different content");
  const texts = [base, ours, theirs].map(decodeText);
  if (texts.some((t) => t === undefined)) return _conflict(1, "both sides changed a binary file");
  const [b, o, t] = texts as string[];
  const merged = await mergeText(b, o, t, options);
  if (!merged.clean) return merged;
  return { clean: true, bytes: new TextEncoder().encode(merged.text) };
}

/**
 * The line-based merge of three texts (what {@linkcode mergeBytes} uses for text). Line numbers
 * in a conflict's reason are the base's. A diff that does not finish in time is a conflict, never
 * a guess. Loads the `diff` package on first use.
 */
export async function mergeText(
  base: string,
  ours: string,
  theirs: string,
  options: MergeOptions = {},
): Promise<TextMergeResult> {
  if (ours === theirs || ours === base) return { clean: true, text: theirs };
  if (theirs === base) return { clean: true, text: ours };
  const { diffArrays } = await import("diff");
  const budget = { diffArrays, deadline: Date.now() + (options.timeoutMs ?? MERGE_TIMEOUT_MS) };
  const lines = [splitLines(base), splitLines(ours), splitLines(theirs)];
  const { ids, size } = lineIds(lines);
  const mine = diffSide(ids[0], ids[1], { size, budget });
  if (typeof mine === "string") return _conflict(1, mine);
  const other = diffSide(ids[0], ids[2], { size, budget });
  if (typeof other === "string") return _conflict(1, other);
  const regions = buildRegions(sideChanges(mine), sideChanges(other), { lines });
  const spots = findSpots(regions, { mine, other });
  if (!spots.length) return { clean: true, text: mergedText(regions, lines) };
  const plain = spots.every((s) => !s.ambiguous);
  const conflicts = plain ? conflictCount(regions, { lines, budget }) : spots.length;
  return _conflict(conflicts, conflictReason(spots[0]));
}

function _conflict(
  conflicts: number,
  reason: string,
): { clean: false; conflicts: number; reason: string } {
  return { clean: false, conflicts, reason };
}
