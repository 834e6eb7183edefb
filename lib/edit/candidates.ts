/**
 * Candidates instead of precedence: where the path resolver took a block's file from a weak
 * source while another weak source named another file (`` `settings.py` stays; only calc.py
 * changes: ``), each other file is a reading of its own. The caller applies and validates every
 * reading and takes the one that survives (docs/REPLIES.md, "Candidates").
 */
import type { Edit } from "./types.ts";

/** At most this many readings besides the first are tried. */
export const MAX_READINGS = 6;

/** The other readings of `edits`: one edit at a time given one of its alternative files. */
export function otherReadings(edits: readonly Edit[]): Edit[][] {
  const out: Edit[][] = [];
  edits.forEach((e, i) => {
    if (e.type !== "whole" || !e.alternatives?.length) return;
    for (const path of e.alternatives) {
      if (out.length >= MAX_READINGS) return;
      if (edits.some((o, k) => k !== i && o.path === path)) continue;
      const moved = { ...e, path, alternatives: undefined, header: undefined };
      out.push(edits.map((o, k) => (k === i ? moved : o)));
    }
  });
  return out;
}
