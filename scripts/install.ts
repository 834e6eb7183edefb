/**
 * Installs the `localexec` command from this checkout, so MCP clients start it in about a second
 * with no network:
 *
 *   deno task install [--preset full|edit|read] [--name NAME] [--root DIR]
 *
 * 1. caches every dependency of main.ts (npm packages, grammars) in Deno's cache, with the lock;
 * 2. writes `<root>/bin/<name>` (root: --root, else $DENO_INSTALL_ROOT, else ~/.deno), a small
 *    shell launcher running this checkout's main.ts with the preset's permission flags and the
 *    absolute path of this Deno. When this Deno lives in an npx cache (`npx deno task install`),
 *    it is copied to `<root>/bin/deno` first, so the command survives an npx cache clean;
 * 3. starts the command once (`--version`) to prove it runs.
 *
 * The launcher needs no environment variable: MCP clients pass the server only a few (Codex keeps
 * HOME and PATH but drops DENO_DIR), so a DENO_DIR set now is written into it.
 */
import { dirname, join, parseArgs } from "../lib/deps.ts";
import { fileURLToPath } from "node:url";
import { type PresetName, PRESETS } from "../lib/mcp/mod.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));

function _fail(message: string): never {
  console.error(`install: ${message}`);
  Deno.exit(1);
}

/** `text` quoted for sh. */
function _sh(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

async function _run(args: string[]): Promise<void> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) _fail(`deno ${args.join(" ")} failed (exit ${code})`);
}

/** The Deno the launcher runs: this one, or a stable copy of it when it lives in an npx cache. */
async function _deno(bin: string): Promise<string> {
  const exe = Deno.execPath();
  if (!/[\\/]_npx[\\/]/.test(exe)) return exe;
  const copy = join(bin, Deno.build.os === "windows" ? "deno.exe" : "deno");
  if (copy !== exe) {
    await Deno.copyFile(exe, `${copy}.tmp`);
    await Deno.chmod(`${copy}.tmp`, 0o755);
    await Deno.rename(`${copy}.tmp`, copy);
    console.error(`copied ${exe} to ${copy}`);
  }
  return copy;
}

/** The launcher's text. */
export function launcher(deno: string, preset: PresetName, denoDir?: string): string {
  const flags = ["--no-prompt", ...PRESETS[preset]].join(" ");
  return [
    "#!/bin/sh",
    `# localexec (${preset} preset), written by \`deno task install\` in ${REPO}; run it again to update.`,
    ...(denoDir ? [`export DENO_DIR=${_sh(denoDir)}`] : []),
    "export DENO_NO_UPDATE_CHECK=1",
    `exec ${_sh(deno)} run --quiet ${flags} --config ${_sh(join(REPO, "deno.json"))} ${
      _sh(join(REPO, "main.ts"))
    } "$@"`,
    "",
  ].join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      preset: { type: "string", default: "full" },
      name: { type: "string", default: "localexec" },
      root: { type: "string" },
    },
  });
  const preset = values.preset as PresetName;
  if (!(preset in PRESETS)) _fail(`unknown preset "${preset}": choose full, edit or read`);
  if (Deno.build.os === "windows") {
    _fail("the launcher is a shell script; on Windows use WSL, or the npx form in the README");
  }
  const home = Deno.env.get("HOME");
  const root = values.root ?? Deno.env.get("DENO_INSTALL_ROOT") ??
    (home ? join(home, ".deno") : _fail("set HOME or DENO_INSTALL_ROOT"));
  const bin = join(root, "bin");
  await Deno.mkdir(bin, { recursive: true });

  console.error("caching every dependency of main.ts…");
  await _run(["cache", "--quiet", "--config", join(REPO, "deno.json"), join(REPO, "main.ts")]);

  const path = join(bin, values.name);
  const text = launcher(await _deno(bin), preset, Deno.env.get("DENO_DIR"));
  await Deno.writeTextFile(`${path}.tmp`, text, { mode: 0o755 });
  await Deno.chmod(`${path}.tmp`, 0o755);
  await Deno.rename(`${path}.tmp`, path);

  const check = await new Deno.Command(path, { args: ["--version"], stderr: "inherit" }).output();
  const said = new TextDecoder().decode(check.stdout).trim();
  if (check.code !== 0) _fail(`${path} --version failed (exit ${check.code})`);
  console.error(`installed ${path} (${said}, ${preset} preset)`);
  const onPath = (Deno.env.get("PATH") ?? "").split(":").includes(bin);
  if (!onPath) {
    console.error(`${bin} is not on PATH: add it, or give clients the full path ${path}`);
  }
  console.error(`next: claude mcp add localexec -- ${onPath ? values.name : path}`);
}
