/**
 * The hand-written tricky replies of `shared/replies/probes.json`, each run through
 * implement_task's judge (parse, apply in memory, syntax backstop) with the fence the prompt asks
 * for: each must end as its `human` field says (`PROBE_RESULTS` in scripts/score_replies.ts holds
 * those results as file contents) — applied exactly, or refused — and never applied otherwise.
 *
 * The probes are public material kept beside the repository. When the file is absent the tests
 * say so: under `CI=true` they fail; otherwise they are reported as ignored, never passed.
 */
import assert from "node:assert/strict";
import {
  loadAll,
  loadProbes,
  PROBE_RESULTS,
  probeCase,
  type ScoreCase,
  scoreCase,
} from "../../scripts/score_replies.ts";

const probes = await loadProbes();

/**
 * Cases whose expected bytes are a reply we refuse on purpose (counted as "refused" by the
 * scorer, still within the bar of one clean refusal per 20), with the reason.
 */
const DISAGREE: Record<string, string> = {
  "real/r52_backtick_path_existing":
    "the reply drops `from datetime import date` while the file still calls date.today(): written, " +
    "the script raises NameError at start; the imports validator refuses it",
  "probes-5/p5.shell_heredoc_with_seven_equals_in_replace":
    "two `=======` lines inside a heredoc in a REPLACE part read as the divider (as Aider reads " +
    "them); refused with the marker named, never applied wrongly",
};
const CI = Deno.env.get("CI") === "true";

Deno.test({
  name: probes
    ? "the probes are there (shared/replies/probes.json)"
    : "the probes are there (shared/replies/probes.json): ABSENT, so every probe is ignored",
  ignore: !probes && !CI,
  fn: () => {
    assert.ok(probes, "shared/replies/probes.json is absent (CI=true: the probes must run)");
    assert.ok(probes.length >= 22, `only ${probes.length} probes`);
    for (const p of probes) assert.ok(PROBE_RESULTS[p.id], `probe ${p.id} has no expected result`);
  },
});

for (const p of probes ?? []) {
  Deno.test(`probe ${p.id}: ${p.title} (human: ${p.human})`, async () => {
    const scored = await scoreCase(probeCase(p));
    assert.notEqual(scored.verdict, "applied-wrongly", scored.detail);
    assert.notEqual(scored.verdict, "refused", scored.detail);
  });
}

Deno.test({
  name: "every reply corpus through implement_task's judge: none applied wrongly, none refused " +
    "that should apply",
  ignore: !probes && !CI,
  fn: async () => {
    const all = await loadAll();
    for (
      const name of [
        "real",
        "own",
        "logs-a",
        "logs-b",
        "logs-c",
        "aider-tests",
        "probes",
        "probes-2",
        "probes-3",
        "probes-4",
        "probes-5",
      ]
    ) {
      assert.ok(all.has(name), `corpus ${name} is absent`);
      for (const c of all.get(name)!) {
        const s = await scoreCase(c);
        if (s.verdict === "refused" && DISAGREE[`${name}/${c.name}`]) continue;
        assert.ok(
          s.verdict === "applied-right" || s.verdict === "refused-right",
          `${name}/${c.name}: ${s.verdict}: ${s.detail}`,
        );
      }
    }
  },
});

Deno.test({
  name: "every case applied correctly before the parser's rewrite is still applied correctly",
  ignore: !probes && !CI,
  fn: async () => {
    const listed = JSON.parse(
      await Deno.readTextFile(new URL("../replies/applied_before_issue18.json", import.meta.url)),
    ).cases as string[];
    const all = await loadAll();
    const byId = new Map<string, ScoreCase>(
      [...all.values()].flat().map((c) => [`${c.corpus}/${c.name}`, c]),
    );
    for (const id of listed) {
      const c = byId.get(id);
      assert.ok(c, `${id} is gone`);
      const s = await scoreCase(c);
      if (s.verdict === "refused" && DISAGREE[id]) continue;
      assert.equal(s.verdict, "applied-right", `${id}: ${s.detail}`);
    }
  },
});
