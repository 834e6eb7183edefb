/**
 * The ladder of a loaded configuration as the engine and `status` use it: the rungs, or a
 * ToolError naming the rung and the key (the checking itself is `lib/model/`'s `readLadder`).
 */
import { basename } from "../deps.ts";
import { ToolError } from "../errors.ts";
import type { Config } from "../config.ts";
import { LadderError, readLadder, type Rung } from "../model/mod.ts";
import { PROVIDERS } from "../providers/mod.ts";

/** The rungs of `config`'s ladder; a bad ladder is a ToolError naming the rung and the key. */
export function configRungs(config: Config): Rung[] {
  try {
    return readLadder(config, PROVIDERS);
  } catch (err) {
    if (!(err instanceof LadderError)) throw err;
    throw new ToolError(`invalid configuration: ${basename(config.path)}: ${err.message}`);
  }
}
