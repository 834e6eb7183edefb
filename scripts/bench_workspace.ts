/**
 * Workspace benchmark: what a task that starts beside another pays for its workspace
 * (`lib/tasks/workspace.ts`) on a large tree, in time and disk. A lone task makes none.
 *
 * Warm-up: `prepareStandby` makes the project's standby (what a first task starting in the tree
 * does), timed once. Then each run, interleaved in this process:
 * - the references: `git status --porcelain` in the tree, and a full copy as every workspace was
 *   made before the standby (`cp -a --reflink=auto` of the tree, the dependency folders linked);
 * - the second task's isolation: `makeWorkspace` taking the standby (a rename and a sync of what
 *   changed), after `--touch` tree files got a new mtime (as edits and landings do), with the disk
 *   it adds to the cache folder (`du`, which counts shared reflinked extents as used);
 * - the task's end: a few edits and a `__pycache__` in the workspace, then `releaseWorkspace`
 *   keeping it, and the time until it is the standby again (recycled: synced as dirty).
 * Medians of `--runs` (default 5) and ratios.
 *
 * The tree is only read (`--touch` sets mtimes, never content); the cache goes under `--out`
 * (`$XDG_CACHE_HOME` for this process: put it on the tree's disk, as the user's cache usually is)
 * and is removed at the end.
 *
 * Run: `deno task bench workspace --tree /path/to/tree59k --out /path/on/the/same/disk`.
 */
import { join } from "../lib/deps.ts";
import {
  LINKED,
  makeWorkspace,
  prepareStandby,
  releaseWorkspace,
  workspaceBase,
  workspacePath,
  writeWork,
} from "../lib/tasks/mod.ts";

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function run(cwd: string, ...argv: string[]): Promise<string> {
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), cwd, stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout);
}

async function duKb(path: string): Promise<number> {
  return Number((await run("/", "du", "-sk", path)).split(/\s/)[0]);
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** A full copy, as `makeWorkspace` made every workspace before the standby. */
async function fullCopy(tree: string, ws: string): Promise<void> {
  await Deno.mkdir(ws, { recursive: true });
  const names: string[] = [];
  for (const e of Deno.readDirSync(tree)) {
    if (e.name === ".git" || e.name === ".localexec") continue;
    if (LINKED.includes(e.name)) await Deno.symlink(join(tree, e.name), join(ws, e.name));
    else names.push(e.name);
  }
  await run(tree, "cp", "-a", "--reflink=auto", "-t", ws, "--", ...names);
}

const args: Record<string, string | undefined> = {};
for (let i = 0; i < Deno.args.length; i++) {
  const m = /^--(tree|out|runs|touch)$/.exec(Deno.args[i]);
  if (m) args[m[1]] = Deno.args[++i];
}
if (!args.tree || !args.out) {
  // Part of `deno task bench` with no names: it needs a large tree, so it says how and stops.
  console.log(
    "workspace: skipped; usage: deno task bench workspace --tree DIR --out DIR [--runs N] " +
      "[--touch N]",
  );
  Deno.exit(0);
}
const tree = await Deno.realPath(args.tree);
const runs = Number(args.runs ?? 5);
const touch = Number(args.touch ?? 10);
await Deno.mkdir(args.out, { recursive: true });
const out = await Deno.realPath(args.out);
Deno.env.set("XDG_CACHE_HOME", join(out, "cache"));
const base = workspaceBase(tree);
const tracked = (await run(tree, "git", "ls-files", "-z")).split("\0").filter((p) => p);

const warm = await timed(() => prepareStandby(tree));
const standbyKb = await duKb(join(base, "standby"));
const ms = {
  take: [] as number[],
  git: [] as number[],
  full: [] as number[],
  back: [] as number[],
};
const extraKb: number[] = [];
let fullKb = 0;
for (let i = 0; i < runs; i++) {
  ms.git.push(await timed(() => run(tree, "git", "status", "--porcelain")));
  const now = new Date();
  for (let k = 0; k < touch; k++) {
    await Deno.utime(join(tree, tracked[(i * 7919 + k * 104729) % tracked.length]), now, now);
  }
  const before = await duKb(base);
  const ws = workspacePath(tree, `B${i}`);
  ms.take.push(await timed(() => makeWorkspace(tree, { ws, running: [], files: [] })));
  extraKb.push((await duKb(base)) - before);
  // What a task and its checks leave: edits, and byte code.
  await writeWork(ws, new Map([[tracked[i], "edited\n"], ["__pycache__/x.pyc", "x"]]));
  ms.back.push(
    await timed(async () => {
      await releaseWorkspace(tree, ws, { keep: true });
      await prepareStandby(tree); // waits for the recycled standby
    }),
  );
  const full = join(out, `full.${i}`);
  ms.full.push(await timed(() => fullCopy(tree, full)));
  if (i === 0) fullKb = await duKb(full);
  await Deno.remove(full, { recursive: true });
}
await Deno.remove(join(out, "cache"), { recursive: true });
const mb = (kb: number) => Math.round(kb / 1024);
const take = median(ms.take);
console.log(JSON.stringify(
  {
    tree,
    runs,
    touched_per_run: touch,
    standby_first_ms: Math.round(warm),
    standby_mb: mb(standbyKb),
    take_ms: Math.round(take),
    take_runs_ms: ms.take.map(Math.round),
    git_status_ms: Math.round(median(ms.git)),
    full_copy_ms: Math.round(median(ms.full)),
    take_vs_git_status: Math.round((take / median(ms.git)) * 100) / 100,
    take_vs_full_copy: Math.round((take / median(ms.full)) * 1000) / 1000,
    take_extra_mb: mb(median(extraKb)),
    full_copy_mb: mb(fullKb),
    give_back_until_standby_ms: Math.round(median(ms.back)),
  },
  null,
  1,
));
