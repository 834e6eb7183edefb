/**
 * Clean replies of unusual shapes that were refused (issue 33's list): each is applied as a careful
 * human would, through implement_task's judge and the validation stage.
 */
import assert from "node:assert/strict";
import { judgeReply, validateOutcome } from "../../lib/implement/reply.ts";

async function applied(
  files: Record<string, string | null>,
  allowed: string[],
  spec: string,
  reply: string,
): Promise<Record<string, string | undefined>> {
  const input = { spec, files: allowed, symbolsOnly: [], current: new Map(Object.entries(files)) };
  const out = await validateOutcome(judgeReply(reply, input), input);
  assert.equal(out.kind, "edits", out.kind === "unusable" ? out.problem : out.kind);
  if (out.kind !== "edits") return {};
  return Object.fromEntries(out.changed.map((p) => [p, out.files.get(p)]));
}

Deno.test("a new .dockerignore whose last line names the Dockerfile is content", async () => {
  const files = { "Dockerfile": "FROM python:3.12\n", ".dockerignore": null };
  const out = await applied(
    files,
    ["Dockerfile", ".dockerignore"],
    "Add a .dockerignore for .git and the Dockerfile itself.",
    ".dockerignore\n```\n.git\nDockerfile\n```\n",
  );
  assert.equal(out[".dockerignore"], ".git\nDockerfile\n");
});

Deno.test("a new .patch file holds a diff", async () => {
  const patch = "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n" +
    "-    return a - b\n+    return a + b\n";
  const out = await applied(
    { "fix.patch": null },
    ["fix.patch"],
    "Write fix.patch that makes add return a + b.",
    `fix.patch\n\`\`\`diff\n${patch}\`\`\`\n`,
  );
  assert.equal(out["fix.patch"], patch);
});

Deno.test("a whole file that deletes the functions the task names", async () => {
  const calc = "def add(a, b):\n    return a + b\n\n\ndef old_add(a, b):\n    return a + b\n\n\n" +
    "def older_add(a, b):\n    return a + b\n";
  const out = await applied(
    { "calc.py": calc },
    ["calc.py"],
    "Delete the deprecated functions old_add and older_add.",
    "calc.py\n```python\ndef add(a, b):\n    return a + b\n```\n",
  );
  assert.equal(out["calc.py"], "def add(a, b):\n    return a + b\n");
});

Deno.test("shell and text blocks under their own path lines", async () => {
  const sh = await applied(
    { "deploy.sh": "#!/bin/sh\necho old\n" },
    ["deploy.sh"],
    "deploy.sh must echo new.",
    "deploy.sh\n```bash\n#!/bin/sh\necho new\n```\n",
  );
  assert.equal(sh["deploy.sh"], "#!/bin/sh\necho new\n");
  const req = await applied(
    { "requirements.txt": "flask==2.0\n" },
    ["requirements.txt"],
    "Add requests.",
    "requirements.txt\n```text\nflask==2.0\nrequests==2.31\n```\n",
  );
  assert.equal(req["requirements.txt"], "flask==2.0\nrequests==2.31\n");
});
