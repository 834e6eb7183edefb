/**
 * A scripted Anthropic-style Messages server for tests: a real HTTP server on 127.0.0.1 that
 * answers `GET /v1/models` and `POST /v1/messages` (streamed), replays scripted replies and
 * records every request.
 *
 * Faithful details (from Anthropic's Messages API reference and its streaming guide): every
 * request carries `x-api-key` and `anthropic-version` (a missing or wrong key answers 401
 * `{"type":"error","error":{"type":"authentication_error","message":…}}`); `system` is a
 * top-level field, and a message with role `system` is refused with 400 `invalid_request_error`;
 * `max_tokens` is required. The stream is `event: <type>\ndata: {json}\n\n` events:
 * `message_start` (with `usage.input_tokens`), `content_block_start`, `ping`,
 * `content_block_delta` (`{"type":"text_delta","text":…}`), `content_block_stop`, `message_delta`
 * (`stop_reason` `end_turn` or `max_tokens`, `usage.output_tokens`), `message_stop`.
 */

/** One request `POST /v1/messages` received. */
export interface AnthropicChat {
  model: string;
  system?: string;
  messages: { role: string; content: string }[];
  max_tokens: number;
  temperature?: number;
  stream?: boolean;
}

/** A running fake. */
export interface FakeAnthropic {
  /** The base URL to configure, ending in `/v1`. */
  baseUrl: string;
  /** Every chat received, in order. */
  chats: AnthropicChat[];
  /** The `anthropic-version` header of every request. */
  versions: string[];
  /** Replies for the next chats, in order. */
  script(...replies: string[]): void;
  close(): Promise<void>;
}

/** Starts a fake serving `models`, accepting `apiKey` (any key when undefined). */
export function startFakeAnthropic(
  opts: { models?: string[]; apiKey?: string } = {},
): FakeAnthropic {
  const models = opts.models ?? ["claude-like-1"];
  const replies: string[] = [];
  const chats: AnthropicChat[] = [];
  const versions: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    versions.push(req.headers.get("anthropic-version") ?? "");
    const key = req.headers.get("x-api-key");
    if (!key || (opts.apiKey !== undefined && key !== opts.apiKey)) {
      return _error(401, "authentication_error", "invalid x-api-key");
    }
    if (!req.headers.get("anthropic-version")) {
      return _error(400, "invalid_request_error", "anthropic-version: header is required");
    }
    if (req.method === "GET" && path === "/v1/models") {
      const data = models.map((id) => ({
        type: "model",
        id,
        display_name: id,
        created_at: "2025-01-01T00:00:00Z",
      }));
      return Response.json({
        data,
        has_more: false,
        first_id: models[0] ?? null,
        last_id: models.at(-1) ?? null,
      });
    }
    if (req.method !== "POST" || path !== "/v1/messages") {
      return _error(404, "not_found_error", "Not found");
    }
    const body = await req.json() as AnthropicChat;
    if (body.messages.some((m) => m.role === "system")) {
      return _error(
        400,
        "invalid_request_error",
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` ' +
          'parameter, not "system" as an input message role.',
      );
    }
    if (typeof body.max_tokens !== "number") {
      return _error(400, "invalid_request_error", "max_tokens: Field required");
    }
    if (!models.includes(body.model)) {
      return _error(404, "not_found_error", `model: ${body.model}`);
    }
    chats.push(body);
    return new Response(_stream(body, replies.shift() ?? ""), {
      headers: { "content-type": "text/event-stream; charset=utf-8" },
    });
  });
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    chats,
    versions,
    script: (...r) => void replies.push(...r),
    close: () => server.shutdown(),
  };
}

function _error(status: number, type: string, message: string): Response {
  return Response.json({ type: "error", error: { type, message } }, { status });
}

/** The events of one streamed reply, cut at `max_tokens` characters (about as many tokens). */
function _stream(body: AnthropicChat, reply: string): string {
  const cut = reply.length > body.max_tokens;
  const text = cut ? reply.slice(0, body.max_tokens) : reply;
  const input = JSON.stringify(body.messages).length + (body.system?.length ?? 0);
  const events: [string, unknown][] = [
    ["message_start", {
      type: "message_start",
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        content: [],
        model: body.model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: Math.ceil(input / 4), output_tokens: 1 },
      },
    }],
    ["content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    }],
    ["ping", { type: "ping" }],
  ];
  for (let i = 0; i < text.length; i += 40) {
    events.push(["content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: text.slice(i, i + 40) },
    }]);
  }
  events.push(
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: cut ? "max_tokens" : "end_turn", stop_sequence: null },
      usage: { output_tokens: Math.ceil(text.length / 4) },
    }],
    ["message_stop", { type: "message_stop" }],
  );
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
}
