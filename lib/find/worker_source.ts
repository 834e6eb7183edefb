/**
 * Builds the search worker's code as a `data:` URL: the constants, the scanner's functions and
 * {@linkcode searchWorkerMain}, written out from their own (already transpiled) source text.
 *
 * A worker loaded from a file would need read permission on the program's own folder, which the
 * read-only preset does not grant; a `data:` URL needs none and is part of the program itself.
 */
import {
  BINARY_PROBE_BYTES,
  CHUNK_FILES,
  COLLECT_AFTER_BYTES,
  COLLECT_NOW_BYTES,
  COLLECT_QUIET_MS,
  COMMON_BYTES,
  CTL_FOUND,
  CTL_NEXT_CHUNK,
  CTL_SEEN,
  CTL_STOP,
  CTL_WORKERS,
  MAX_FILE_BYTES,
  PATH_STRING_BYTES,
  RACY_MS,
  SKETCH_IDLE_MS,
  SKETCH_SLICE_MS,
  SKIPPED_NAMED,
  SLICE_MS,
  SUMMARY_BYTES,
  TIME_STEP_MS,
  YOUNG_AFTER_BYTES,
} from "./protocol.ts";
import {
  _newlines,
  CONTEXT_BEFORE,
  cutLine,
  escapeRegExp,
  makeScanner,
  MAX_LINE_CHARS,
} from "./scan.ts";
import {
  bytePrefilter,
  fileReader,
  garbageKeeper,
  listingView,
  runSearch,
  searchSteps,
  searchWorkerMain,
  summaryIndex,
  threadCpuMs,
} from "./worker.ts";
import { globMatches } from "../glob/mod.ts";
import { direct, holdsPast, readInto } from "./read.ts";
import { packedPath } from "./packed.ts";
import { SKETCH_PLACE_BITS, sketchBase, sketchFile, sketchScratch, sketchSize } from "./sketch.ts";
import {
  BYTE_COST_US,
  compareBytes,
  FILE_COST_US,
  fileCost,
  fileWorth,
  FOLDER_COST_US,
  weighChunks,
  WEIGHT_CAP_BYTES,
} from "./weights.ts";

/** The worker's whole source. */
function workerSource(): string {
  const constants = {
    BINARY_PROBE_BYTES,
    CHUNK_FILES,
    COMMON_BYTES,
    CTL_FOUND,
    CTL_NEXT_CHUNK,
    CTL_SEEN,
    CTL_STOP,
    CTL_WORKERS,
    MAX_FILE_BYTES,
    RACY_MS,
    SKETCH_IDLE_MS,
    SKETCH_PLACE_BITS,
    SKETCH_SLICE_MS,
    SKIPPED_NAMED,
    SLICE_MS,
    SUMMARY_BYTES,
    TIME_STEP_MS,
    COLLECT_AFTER_BYTES,
    COLLECT_NOW_BYTES,
    COLLECT_QUIET_MS,
    PATH_STRING_BYTES,
    YOUNG_AFTER_BYTES,
    CONTEXT_BEFORE,
    MAX_LINE_CHARS,
    BYTE_COST_US,
    FILE_COST_US,
    FOLDER_COST_US,
    WEIGHT_CAP_BYTES,
  };
  return [
    `import { Buffer } from "node:buffer";`,
    `import vm from "node:vm";`,
    `const scope = self;`,
    ...Object.entries(constants).map(([name, value]) =>
      `const ${name} = ${JSON.stringify(value)};`
    ),
    String(_newlines),
    String(cutLine),
    String(escapeRegExp),
    String(makeScanner),
    String(globMatches),
    String(direct),
    String(holdsPast),
    String(readInto),
    String(packedPath),
    String(sketchBase),
    String(sketchFile),
    String(sketchScratch),
    String(sketchSize),
    String(fileWorth),
    String(fileCost),
    String(compareBytes),
    String(weighChunks),
    ...[
      fileReader,
      listingView,
      summaryIndex,
      bytePrefilter,
      threadCpuMs,
      searchSteps,
      runSearch,
      garbageKeeper,
    ]
      .map(String),
    `(${searchWorkerMain})();`,
  ].join("\n");
}

/** The worker's source as a `data:` URL for `new Worker(url, { type: "module" })`. */
export function workerUrl(): string {
  return `data:text/javascript;charset=utf-8,${encodeURIComponent(workerSource())}`;
}
