/**
 * Builds the single localexec executable with `deno compile`.
 *
 *   deno task compile [--preset full|edit|read] [--target TRIPLE] [--output PATH]
 *
 * The chosen preset's permission flags are baked into the binary (a compiled program cannot take
 * `--allow-*` flags at run time). The WASM grammars are embedded through bytes imports.
 * `deno compile` downloads its runtime base (`denort`) unless `DENORT_BIN` names a local copy;
 * that variable is passed through untouched.
 */
import { parseArgs } from "../lib/deps.ts";
import { type PresetName, PRESETS } from "../lib/presets.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    preset: { type: "string", default: "full" },
    target: { type: "string" },
    output: { type: "string" },
  },
});
const preset = values.preset as PresetName;
if (!(preset in PRESETS)) {
  console.error(`unknown preset "${preset}"; choose one of ${Object.keys(PRESETS).join(", ")}`);
  Deno.exit(2);
}
const output = values.output ?? `dist/localexec${preset === "full" ? "" : `-${preset}`}`;
const args = [
  "compile",
  "--no-prompt",
  ...PRESETS[preset],
  ...(values.target ? ["--target", values.target] : []),
  "--output",
  output,
  "main.ts",
];
console.error(
  `deno ${args.join(" ")}${
    Deno.env.get("DENORT_BIN") ? ` (DENORT_BIN=${Deno.env.get("DENORT_BIN")})` : ""
  }`,
);
const { code } = await new Deno.Command(Deno.execPath(), {
  args,
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (code === 0) console.error(`built ${output}`);
Deno.exit(code);
