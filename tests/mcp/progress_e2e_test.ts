/**
 * Progress over the SDK client: every notification of one call carries a larger `progress` than
 * the one before (the MCP specification), heartbeats and the tool's own steps alike.
 */
import assert from "node:assert/strict";
import { connectInProcess } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("progress: a call's notifications increase strictly, heartbeats between steps", async () => {
  const config = {
    checks: {
      one: { command: "sleep 0.4" },
      two: { command: "sleep 0.4" },
    },
  };
  const root = await tempProject({ ".localexec.json": JSON.stringify(config) });
  const conn = await connectInProcess(root, { heartbeatMs: 50 });
  try {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await conn.client.callTool({ name: "run_checks", arguments: {} }, undefined, {
      onprogress: (p) => void seen.push(p),
    });
    const steps = seen.filter((p) =>
      p.message?.startsWith("running check") && p.progress % 1 === 0
    );
    assert.ok(
      seen.length - steps.length >= 4,
      `heartbeats between the checks: ${JSON.stringify(seen)}`,
    );
    // A check's start counts the checks done before it: 0 and 1 of 2, never past the total.
    assert.ok(seen.some((p) => p.total === 2 && p.progress === 1), JSON.stringify(seen));
    for (let i = 1; i < seen.length; i++) {
      assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen.slice(i - 1, i + 1)));
    }
    // (Heartbeats before the first check know no total yet.)
    for (const p of seen) assert.ok((p.total ?? 2) === 2 && p.progress < 2, JSON.stringify(p));
  } finally {
    await conn.close();
  }
});

Deno.test("progress: one check's run stays within its total, heartbeats included", async () => {
  const config = { checks: { only: { command: "sleep 0.5" } } };
  const root = await tempProject({ ".localexec.json": JSON.stringify(config) });
  const conn = await connectInProcess(root, { heartbeatMs: 50 });
  try {
    const seen: { progress: number; total?: number }[] = [];
    await conn.client.callTool({ name: "run_checks", arguments: {} }, undefined, {
      onprogress: (p) => void seen.push(p),
    });
    assert.ok(seen.filter((p) => p.total === 1).length >= 3, JSON.stringify(seen));
    // (main reported 1 of 1 when the only check started, then 1.001, 1.002…)
    for (const p of seen) assert.ok((p.total ?? 1) === 1 && p.progress < 1, JSON.stringify(seen));
  } finally {
    await conn.close();
    await Deno.remove(root, { recursive: true });
  }
});
