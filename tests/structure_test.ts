import assert from "node:assert/strict";
import { cycles, violations } from "../scripts/check_structure.ts";

Deno.test("structure check finds cycles, type-only and dynamic imports included", () => {
  const files: Record<string, string> = {
    "lib/a.ts": 'import type { B } from "./b.ts";\n',
    "lib/b.ts": 'export const b = () => import("./a.ts");\n',
    "lib/c.ts": 'import { a } from "./a.ts";\n',
  };
  const problems = violations(Object.keys(files), (f) => files[f]);
  assert.deepEqual(problems, ["import cycle: lib/a.ts -> lib/b.ts"]);
  assert.deepEqual(cycles(new Map([["x", ["x"]]])), [["x"]]);
});

Deno.test("structure check refuses boundary imports and deep imports outside the MCP layer", () => {
  const files: Record<string, string> = {
    "lib/tasks/store.ts": 'import { ToolError } from "../mcp/boundary.ts";\n',
    "tools/x.ts": 'import { walk } from "../lib/find/walk.ts";\n',
    "lib/mcp/server.ts": 'import { callTool } from "./boundary.ts";\n',
    "lib/mcp/boundary.ts": "export const callTool = 1;\n",
    "lib/find/walk.ts": "export const walk = 1;\n",
  };
  const problems = violations(Object.keys(files), (f) => files[f]);
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.match(problems.join("\n"), /store\.ts imports the boundary/);
  assert.match(problems.join("\n"), /tools\/x\.ts imports lib\/find\/walk\.ts/);
});

Deno.test("structure check counts the modules directly in lib/", () => {
  const files = Array.from({ length: 13 }, (_, i) => `lib/m${i}.ts`);
  const problems = violations(files, () => "");
  assert.equal(problems.length, 1);
  assert.match(problems[0], /13 modules directly in lib\//);
});
