/**
 * The ladder of a loaded configuration as the engine and `status` use it: the rungs, or a
 * ToolError naming the rung and the key (the checking itself is `lib/model/`'s `readLadder`).
 */
import { basename } from "../deps.ts";
import { ToolError } from "../errors.ts";
import type { Config } from "../config.ts";
import { LadderError, readLadder, type Rung } from "../model/mod.ts";

/** The rungs of `config`'s ladder; a bad ladder is a ToolError naming the rung and the key. */
export function configRungs(config: Config): Rung[] {
  try {
    return readLadder(config, _envHost());
  } catch (err) {
    if (!(err instanceof LadderError)) throw err;
    throw new ToolError(`invalid configuration: ${basename(config.path)}: ${err.message}`);
  }
}

function _envHost(): string | undefined {
  try {
    const granted =
      Deno.permissions.querySync({ name: "env", variable: "OLLAMA_HOST" }).state === "granted";
    return granted ? Deno.env.get("OLLAMA_HOST") || undefined : undefined;
  } catch {
    return undefined;
  }
}
