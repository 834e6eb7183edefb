/**
 * The one place that imports path and argument helpers.
 *
 * JSR is unreachable from our machines, so the roles of `@std/path` and `@std/cli` are served by
 * Node's built-ins here; switching to `jsr:@std/*` later is a change to this file alone.
 */
export {
  basename,
  dirname,
  extname,
  isAbsolute,
  join,
  normalize,
  relative,
  resolve,
  sep,
} from "node:path";
export { parseArgs } from "node:util";
