/**
 * What a reply with no edits means: a question for the caller, a unified diff, reasoning that never
 * ended, code blocks without a path, a request for a file the prompt already showed, or nothing
 * usable. Each problem is a message for the model that says how to reply instead.
 */
import { readQuestion } from "./reasoning.ts";
import type { FenceToken } from "./tokens.ts";
import type { ParseResult } from "./types.ts";

/** True when `body` is a unified diff (hunk headers and ---/+++ lines). */
export function looksLikeDiff(body: readonly string[]): boolean {
  const hunk = body.some((l) => /^@@ .* @@/.test(l));
  const heads = body.some((l) => l.startsWith("--- ")) && body.some((l) => l.startsWith("+++ "));
  return hunk && heads;
}

const REQUEST =
  /\b(please|could you|can you|would you|kindly)\b[^.?!\n]*\b(provide|share|paste|send|add|upload|show|give|include)\b|\bI (need|would need|require)\b[^.?!\n]*\b(see|content|contents|code|file|context)\b|\bmore context\b/i;

/**
 * A reply with no edits that asks for input. Asking for a file whose content the prompt gave in
 * full is a misreading: the model is told it has the file. Asking for anything else (another
 * file, more context) is a question for the caller, who can add what is missing.
 */
function _request(reply: string, known: readonly string[]): ParseResult | null {
  if (reply.length > 2000 || !REQUEST.test(reply)) return null;
  const asked = known.filter((k) =>
    reply.includes(k) || reply.includes(k.slice(k.lastIndexOf("/") + 1))
  );
  if (asked.length) {
    const names = asked.map((k) => `"${k}"`).join(", ");
    return {
      kind: "invalid",
      problem:
        `The reply asks for ${names}, but ${
          asked.length > 1 ? "their" : "its"
        } current content is already in the prompt above; don't ask for it, ` +
        `reply with the edit, ` +
        `for example:\n${asked[0]}\n\`\`\`\n(the complete new file)\n\`\`\``,
    };
  }
  return { kind: "question", question: reply.trim() };
}

/** What a reply with no edits amounts to: a question, or the problem to send back. */
export function noEdits(
  reply: string,
  pathless: readonly FenceToken[],
  unclosed: boolean,
  known: readonly string[],
  commands: readonly FenceToken[] = [],
): ParseResult {
  const question = readQuestion(reply);
  if (question) return { kind: "question", question };
  const lines = reply.split("\n");
  if (looksLikeDiff(lines)) {
    return {
      kind: "invalid",
      problem: "The reply is a unified diff, which cannot be applied; use SEARCH/REPLACE blocks " +
        "or the whole file instead",
    };
  }
  if (unclosed) {
    return {
      kind: "invalid",
      problem: "The reply is only reasoning in a <think> block that was never closed, with no " +
        "edits; close </think> and then write the edits",
    };
  }
  if (pathless.length) {
    const files = known.map((k) => `"${k}"`).join(", ");
    const example = known[0] ?? "path/of/the/file";
    return {
      kind: "invalid",
      problem: `The reply has ${pathless.length} code block(s) but none names its file; write ` +
        `the file's path (${files}) alone on the line before each block, like this:\n` +
        `${example}\n\`\`\`\n(the complete file)\n\`\`\``,
    };
  }
  if (commands.length) {
    const at = commands.map((c) => c.line + 1).join(", ");
    return {
      kind: "invalid",
      problem: `The reply holds only command or output blocks (line ${at}), which are not a ` +
        "file's content, and no edits; write the edit itself: the file's path alone on a line, " +
        `then the block, like this:\n${
          known[0] ?? "path/of/the/file"
        }\n\`\`\`\n(the complete file)\n\`\`\``,
    };
  }
  const request = _request(reply, known);
  if (request) return request;
  return {
    kind: "invalid",
    problem: "The reply holds no edits: no SEARCH/REPLACE block and no file path followed by a " +
      "code block; reply with edits, or start with QUESTION: to ask something",
  };
}
