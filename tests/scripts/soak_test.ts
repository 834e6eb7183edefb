/**
 * The soak's short form: 150 mixed tool calls against a real server leave its open descriptors
 * where they were after warm-up (workers started, grammars loaded): nothing a call opens (a
 * shell's pipes, a worker, a read file) stays open. Descriptors only, never a time or a size.
 */
import assert from "node:assert/strict";
import { mixedCall, startSoak } from "../../scripts/soak.ts";

Deno.test({
  name: "150 mixed calls leave the server's descriptors where warm-up left them",
  ignore: Deno.build.os !== "linux",
  async fn() {
    const soak = await startSoak(1_000);
    try {
      const idle = soak.sample().fds;
      const after: number[] = [];
      for (let i = 1; i <= 150; i++) {
        const failed = await mixedCall(soak, i);
        assert.equal(failed, undefined, JSON.stringify(failed));
        if (i % 25 === 0) {
          await new Promise((r) => setTimeout(r, 50)); // children reaped
          after.push(soak.sample().fds);
        }
      }
      const warm = after[1]; // after 50 calls: every kind has run at least three times
      const last = after[after.length - 1];
      assert.ok(
        last <= warm + 2,
        `descriptors grew: idle ${idle}, then ${after.join(" → ")} (${soak.descriptors()})`,
      );
      assert.ok(last <= idle + 40, `descriptors ${idle} → ${last} (${soak.descriptors()})`);
    } finally {
      await soak.close();
    }
  },
});
