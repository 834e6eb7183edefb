/**
 * Smoke test for localexec executables: what a release binary must do on the machine it runs on.
 *
 *   deno run -A scripts/smoke.ts EXECUTABLE…     a compiled binary (preset from its name:
 *                                               `…-read…`, `…-edit…`, otherwise full)
 *   deno run -A scripts/smoke.ts deno:PRESET…    `deno run` with exactly the flags that
 *                                               scripts/compile.ts bakes into that preset
 *
 * For each target, in a fresh project folder: `--version`; the MCP handshake; `tools/list` is
 * exactly the preset's tools; `outline` on a file of every grammar (proves the grammars are
 * embedded); `find` (proves the search worker is embedded); `read_file`. A binary runs with an
 * empty HOME and DENO_DIR, so nothing can come from a cache. Each `deno:` target also runs once with
 * read permission on the project root only (`deno:full` then with the explicit flags `-A` stands
 * for, read scoped). Prints one line per check on stderr; exits 1 on any
 * failure.
 */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { basename, join } from "../lib/deps.ts";
import { fileURLToPath } from "node:url";
import { grants, type PresetName, PRESETS, scopedFlags } from "../lib/mcp/mod.ts";
import { loadTools } from "../tools/mod.ts";

/** Every registered tool, loaded: each says what it needs. */
const TOOLS = await loadTools();

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** One file per grammar, with the name outline must find in it. */
const SAMPLES: Record<string, [string, string]> = {
  "a.py": ["def smoke_py(x):\n    return x\n", "smoke_py"],
  "a.js": ["function smokeJs(x) {\n  return x;\n}\n", "smokeJs"],
  "a.jsx": ["function SmokeJsx() {\n  return <div />;\n}\n", "SmokeJsx"],
  "a.ts": ["export function smokeTs(x: number): number {\n  return x;\n}\n", "smokeTs"],
  "a.tsx": ["export function SmokeTsx(): JSX.Element {\n  return <div />;\n}\n", "SmokeTsx"],
  "a.go": ["package main\n\nfunc SmokeGo() int {\n\treturn 1\n}\n", "SmokeGo"],
  "a.rs": ["fn smoke_rs() -> i32 {\n    1\n}\n", "smoke_rs"],
  "A.java": ["class A {\n  int smokeJava() {\n    return 1;\n  }\n}\n", "smokeJava"],
  "a.c": ["int smoke_c(void) {\n  return 1;\n}\n", "smoke_c"],
  "a.cpp": ["int smoke_cpp() {\n  return 1;\n}\n", "smoke_cpp"],
  "a.rb": ["def smoke_rb\n  1\nend\n", "smoke_rb"],
  "a.sh": ["smoke_sh() {\n  echo 1\n}\n", "smoke_sh"],
};

interface Target {
  label: string;
  preset: PresetName;
  command: string;
  args: string[];
  /** Replaces the environment (binaries: empty HOME and DENO_DIR). */
  env?: Record<string, string>;
}

let failures = 0;

function report(ok: boolean, label: string, what: string, detail = ""): void {
  if (!ok) failures++;
  console.error(`${ok ? "ok  " : "FAIL"} ${label}: ${what}${detail ? ` — ${detail}` : ""}`);
}

/** The tools a preset offers: those whose every need its flags grant. */
function expectedTools(preset: PresetName): string[] {
  const flags: readonly string[] = PRESETS[preset];
  return TOOLS.filter((t) => t.needs.every((need) => grants(flags, need))).map((t) => t.name)
    .sort();
}

function presetOf(executable: string): PresetName {
  const name = basename(executable);
  return name.includes("-read") ? "read" : name.includes("-edit") ? "edit" : "full";
}

async function targets(specs: string[], root: string, empty: string): Promise<Target[]> {
  const out: Target[] = [];
  for (const spec of specs) {
    const preset = spec.startsWith("deno:") ? spec.slice(5) : undefined;
    if (preset !== undefined) {
      if (!(preset in PRESETS)) throw new Error(`unknown preset in ${spec}`);
      const p = preset as PresetName;
      const base = ["run", "--no-prompt", "--quiet"];
      out.push({
        label: spec,
        preset: p,
        command: Deno.execPath(),
        args: [...base, ...PRESETS[p], MAIN],
      });
      out.push({
        label: `${spec} (read on the root only)`,
        preset: p,
        command: Deno.execPath(),
        args: [...base, ...scopedFlags(p, root), MAIN],
      });
    } else {
      const command = await Deno.realPath(spec);
      const env = { HOME: empty, DENO_DIR: join(empty, "deno"), PATH: Deno.env.get("PATH") ?? "" };
      out.push({ label: basename(spec), preset: presetOf(spec), command, args: [], env });
    }
  }
  return out;
}

async function version(t: Target): Promise<void> {
  const { code, stdout } = await new Deno.Command(t.command, {
    args: [...t.args, "--version"],
    env: t.env,
    clearEnv: t.env !== undefined,
    stderr: "null",
  }).output();
  const text = new TextDecoder().decode(stdout).trim();
  report(code === 0 && /^localexec \S+$/.test(text), t.label, "--version", text);
}

async function callJson(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  const block = (result.content as { type: string; text?: string }[])[0];
  return JSON.parse(block?.text ?? "{}") as Record<string, unknown>;
}

async function session(t: Target, root: string): Promise<void> {
  const transport = new StdioClientTransport({
    command: t.command,
    args: [...t.args, "--root", root],
    env: t.env ?? { ...Deno.env.toObject(), NO_COLOR: "1" },
    cwd: root,
    stderr: "pipe",
  });
  const client = new Client({ name: "localexec-smoke", version: "0" });
  try {
    await client.connect(transport);
    const info = client.getServerVersion();
    report(info?.name === "localexec", t.label, "MCP handshake", `${info?.name} ${info?.version}`);
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    const want = expectedTools(t.preset);
    report(
      names.join() === want.join(),
      t.label,
      `tools/list = the ${t.preset} preset's ${want.length} tools`,
      names.join() === want.join() ? "" : `got ${names.join(", ")}`,
    );
    for (const [file, [, name]] of Object.entries(SAMPLES)) {
      const r = await callJson(client, "outline", { path: file });
      const items = (r.items as string[] | undefined) ?? [];
      report(
        r.status === "ok" && items.some((i) => i.includes(name)),
        t.label,
        `outline ${file}`,
        r.status === "ok" ? "" : String(r.error),
      );
    }
    const found = await callJson(client, "find", { pattern: "smoke", ignore_case: true });
    report(
      found.status === "ok" && Number(found.count) >= Object.keys(SAMPLES).length,
      t.label,
      "find",
      `count ${found.count ?? found.error}`,
    );
    const read = await callJson(client, "read_file", { filename: "a.py" });
    report(read.status === "ok" && String(read.content).includes("smoke_py"), t.label, "read_file");
  } catch (err) {
    report(false, t.label, "session", (err as Error).message);
  } finally {
    await client.close().catch(() => {});
  }
}

if (import.meta.main) {
  if (!Deno.args.length) {
    console.error("usage: deno run -A scripts/smoke.ts EXECUTABLE… | deno:PRESET…");
    Deno.exit(2);
  }
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "localexec-smoke-" }));
  const empty = await Deno.makeTempDir({ prefix: "localexec-smoke-home-" });
  await Deno.writeTextFile(join(root, "package.json"), "{}\n");
  for (const [file, [text]] of Object.entries(SAMPLES)) {
    await Deno.writeTextFile(join(root, file), text);
  }
  try {
    for (const t of await targets(Deno.args, root, empty)) {
      await version(t);
      await session(t, root);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(empty, { recursive: true });
  }
  console.error(failures ? `${failures} check(s) failed` : "all checks passed");
  Deno.exit(failures ? 1 : 0);
}
