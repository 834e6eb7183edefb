/**
 * The provider table (docs/PROVIDERS.md): every model provider localexec speaks to, one line each,
 * the first the default. The configuration's loader, the ladder, the engine's hosts, `status` and
 * `localexec init` read this table, and nothing else names a provider: adding one is its folder
 * (a `Provider` record, `lib/model/provider.ts`) and one line here.
 */
import type { Provider } from "../model/mod.ts";
import { ollama } from "../ollama/mod.ts";
import { openai } from "../openai/mod.ts";

/** The providers, the default first. Tests may push a test-only one (`tests/helpers/`). */
export const PROVIDERS: Provider[] = [
  ollama,
  openai,
];

/** The provider `name` of the table; throws naming the known ones when there is none. */
export function providerNamed(name: string, table: readonly Provider[] = PROVIDERS): Provider {
  const found = table.find((p) => p.name === name);
  if (found) return found;
  throw new RangeError(
    `unknown provider ${JSON.stringify(name)}; known: ${table.map((p) => p.name).join(", ")}`,
  );
}
