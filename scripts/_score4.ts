import { type ScoreCase, scoreCase } from "./score_replies.ts";
const dir = "/work/wt/probes4/cases";
const out: Record<string, number> = {};
for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
  const c = JSON.parse(Deno.readTextFileSync(`${dir}/${e.name}`));
  const files: Record<string, string | null> = { ...c.files };
  for (const p of c.files_to_edit) if (!(p in files)) files[p] = null;
  const accept = c.expect === "applied"
    ? [c.expected_files ?? {}, ...(c.alt_expected_files ?? [])].map((
      w: Record<string, string | null>,
    ) => ({ ...files, ...w }))
    : [];
  const sc: ScoreCase = {
    corpus: "p3",
    name: c.name,
    files,
    allowed: c.files_to_edit,
    spec: c.spec,
    reply: c.reply,
    accept,
    refuseOk: c.expect !== "applied" || !!c.reject_ok,
    noopOk: !!c.noop_ok,
  };
  const r = await scoreCase(sc);
  out[r.verdict] = (out[r.verdict] ?? 0) + 1;
  if (r.verdict === "refused" || r.verdict === "applied-wrongly") {
    console.log(r.verdict, c.name, "::", r.detail.replace(/\n/g, "⏎").slice(0, 300));
  }
}
console.log(out);
