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
    const beats = seen.filter((p) => p.total === undefined).length;
    assert.ok(beats >= 4, `heartbeats between the checks: ${JSON.stringify(seen)}`);
    assert.ok(seen.some((p) => p.total === 2 && p.progress === 2), JSON.stringify(seen));
    for (let i = 1; i < seen.length; i++) {
      assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen.slice(i - 1, i + 1)));
    }
  } finally {
    await conn.close();
  }
});
