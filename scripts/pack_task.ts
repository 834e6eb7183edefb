/**
 * Packs eval task folders (docs/EVAL.md) into bundles, one `<name>.txtar` each: how a task joins
 * the bundled suite. Write and try the task as a folder (`localexec eval --tasks DIR`), then pack
 * it into `lib/eval/suite/`. A bundle is refused unless loading it gives back every file exactly.
 *
 *   deno run --allow-read --allow-write scripts/pack_task.ts TASK_DIR... [--out lib/eval/suite]
 */
import { basename, join, parseArgs } from "../lib/deps.ts";
import { type BundleTexts, readBundle, writeBundle } from "../lib/eval/mod.ts";

const DECODER = new TextDecoder("utf-8", { fatal: true });

/** The text files under `dir`, relative path → content, sorted by path. */
async function _texts(dir: string, prefix = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = [];
  for await (const e of Deno.readDir(join(dir, prefix))) entries.push(e);
  entries.sort((a, b) => a.name < b.name ? -1 : 1);
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) Object.assign(out, await _texts(dir, rel));
    else if (e.isFile) out[rel] = DECODER.decode(await Deno.readFile(join(dir, rel)));
  }
  return out;
}

/** The bundle of the task folder `dir`; throws when it would not load back exactly. */
export async function packTask(dir: string): Promise<string> {
  const texts: BundleTexts = {
    taskJson: await Deno.readTextFile(join(dir, "task.json")),
    files: await _texts(join(dir, "files")),
    solution: await _texts(join(dir, "solution")).catch(() => ({})),
  };
  const bundle = writeBundle(texts);
  const back = readBundle(bundle);
  for (const part of ["files", "solution"] as const) {
    const want = Object.entries(texts[part]);
    const bad = want.find(([rel, text]) => back[part][rel] !== text);
    if (bad || Object.keys(back[part]).length !== want.length) {
      throw new Error(`${dir}: ${part}/${bad?.[0] ?? ""} does not survive the bundle`);
    }
  }
  if (back.taskJson !== texts.taskJson) throw new Error(`${dir}: task.json does not survive`);
  return bundle;
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string", default: "lib/eval/suite" } },
    allowPositionals: true,
  });
  for (const dir of positionals) {
    const to = join(values.out, `${basename(dir.replace(/\/+$/, ""))}.txtar`);
    await Deno.writeTextFile(to, await packTask(dir));
    console.error(`packed ${to}`);
  }
}
