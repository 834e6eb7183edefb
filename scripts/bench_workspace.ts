/**
 * Workspace benchmark: what a task that starts beside another pays for its workspace
 * (`lib/tasks/workspace.ts`) on a large tree, in time and disk. A lone task makes none.
 *
 * Each run makes a workspace of `--tree` (read only: the workspace goes under `--out`, not into
 * the tree's `.localexec/`), measures its wall time, its files and the disk it takes (`du`, which
 * counts shared reflinked extents as used), and removes it; interleaved with each run, the
 * reference: `git status --porcelain` in the tree (what a check such as `git diff` costs there),
 * so the ratio survives a noisy machine. Medians of `--runs` (default 5).
 *
 * Run: `deno task bench workspace --tree /path/to/tree59k --out /path/on/the/same/disk`.
 */
import { join } from "../lib/deps.ts";
import { makeWorkspace, removeWorkspace } from "../lib/tasks/mod.ts";

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

const args: Record<string, string | undefined> = {};
for (let i = 0; i < Deno.args.length; i++) {
  const m = /^--(tree|out|runs)$/.exec(Deno.args[i]);
  if (m) args[m[1]] = Deno.args[++i];
}
if (!args.tree || !args.out) {
  // Part of `deno task bench` with no names: it needs a large tree, so it says how and stops.
  console.log(
    "workspace: skipped; usage: deno task bench workspace --tree DIR --out DIR [--runs N]",
  );
  Deno.exit(0);
}
const tree = await Deno.realPath(args.tree);
const runs = Number(args.runs ?? 5);
await Deno.mkdir(args.out, { recursive: true });
const ms: number[] = [];
const ref: number[] = [];
let files = 0, kb = 0;
for (let i = 0; i < runs; i++) {
  const ws = join(await Deno.realPath(args.out), `bench.${i}`);
  const t0 = performance.now();
  await makeWorkspace(tree, ws, []);
  ms.push(performance.now() - t0);
  if (i === 0) {
    files = Number((await run(ws, "sh", "-c", "find . -type f | wc -l")).trim());
    kb = Number((await run(ws, "du", "-sk", ".")).split(/\s/)[0]);
  }
  await removeWorkspace(ws);
  const t1 = performance.now();
  await run(tree, "git", "status", "--porcelain");
  ref.push(performance.now() - t1);
}
const treeKb = Number((await run(tree, "du", "-sk", "--exclude=.git", ".")).split(/\s/)[0]);
console.log(JSON.stringify(
  {
    tree,
    runs,
    workspace_ms: Math.round(median(ms)),
    git_status_ms: Math.round(median(ref)),
    ratio: Math.round((median(ms) / median(ref)) * 100) / 100,
    workspace_files: files,
    workspace_mb: Math.round(kb / 1024),
    tree_mb_without_git: Math.round(treeKb / 1024),
  },
  null,
  1,
));
