/**
 * Builds the single localexec executable with `deno compile`.
 *
 *   deno task compile [--preset full|edit|read] [--target TRIPLE] [--output PATH]
 *
 * The chosen preset's permission flags are baked into the binary (a compiled program cannot take
 * `--allow-*` flags at run time): `-A` for full, `--allow-read [--allow-write]` for read and edit
 * (`lib/mcp/presets.ts` says why). The WASM grammars are embedded through bytes imports.
 * `deno compile` downloads its runtime base (`denort`) unless `DENORT_BIN` names a local copy;
 * that variable is passed through untouched.
 */
import { join, parseArgs } from "../lib/deps.ts";
import { type PresetName, PRESETS } from "../lib/mcp/mod.ts";

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

/**
 * The grammar packages ship C sources, bindings and prebuilt native addons (about 180 MB) beside
 * the few MB of `.wasm` localexec loads; leave everything but the `.wasm` out of the binary.
 */
async function _grammarExcludes(): Promise<string[]> {
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stderr: "null" })
    .output();
  const cache = JSON.parse(new TextDecoder().decode(info.stdout)).npmCache as string | undefined;
  if (!cache) return [];
  const registry = join(cache, "registry.npmjs.org");
  const out: string[] = [];
  if (!(await Deno.stat(registry).catch(() => undefined))?.isDirectory) return out;
  for await (const pkg of Deno.readDir(registry)) {
    if (!pkg.name.startsWith("tree-sitter-")) continue;
    for await (const version of Deno.readDir(join(registry, pkg.name))) {
      const dir = join(registry, pkg.name, version.name);
      if (!version.isDirectory) continue;
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name.endsWith(".wasm") || entry.name === "package.json") continue;
        out.push("--exclude", join(dir, entry.name));
      }
    }
  }
  return out;
}

const args = [
  "compile",
  "--no-prompt",
  ...PRESETS[preset],
  "--exclude-unused-npm",
  ...(await _grammarExcludes()),
  // `localexec eval`'s bundled suite: data files read at run time
  "--include",
  "lib/eval/suite",
  ...(values.target ? ["--target", values.target] : []),
  "--output",
  output,
  "main.ts",
];
console.error(
  `deno compile ${
    PRESETS[preset].join(" ")
  } --exclude-unused-npm (grammar sources excluded) --output ${output} main.ts${
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
