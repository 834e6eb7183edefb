/** An unknown method is answered -32601 with the message said once, not "MCP error -32601: MCP error -32601: …". */
import assert from "node:assert/strict";
import { z } from "zod";
import { connect } from "../helpers/mcp.ts";
import { tempProject } from "../helpers/project.ts";

Deno.test("an unknown method gets -32601 without a doubled prefix", async () => {
  const root = await tempProject({ "package.json": "{}" });
  const { client, close } = await connect(root);
  try {
    await assert.rejects(
      client.request({ method: "resources/list", params: {} }, z.object({})),
      (err: Error & { code?: number }) => {
        assert.equal(err.code, -32601);
        assert.equal(err.message, "MCP error -32601: Method not found: resources/list");
        return true;
      },
    );
  } finally {
    await close();
  }
});
