/**
 * status: a health check of this project's localexec set-up: config, model in Ollama, tasks,
 * which tools are on. The Ollama client is loaded on first use to keep start-up light.
 */
import { z } from "zod";
import description from "./status.md" with { type: "text" };
import { errorLine, ToolError } from "../lib/errors.ts";
import { type Config, loadToolConfig } from "../lib/config.ts";
import { basename } from "../lib/deps.ts";
import { listTasks, taskTotals } from "../lib/tasks/mod.ts";
import { ANNOTATIONS, defineTool, prose } from "../lib/mcp/mod.ts";
import { VERSION } from "../lib/version.ts";

/** What Ollama says about the configured model. */
async function _model(config: Config, signal: AbortSignal): Promise<Record<string, unknown>> {
  const { createOllama, findModel } = await import("../lib/ollama/mod.ts");
  const ollama = createOllama(config.ollama_host, { connectTimeoutS: 5 });
  const version = await ollama.version({ signal });
  if (!config.model) return { ollama_version: version };
  const installed = findModel(await ollama.tags({ signal }), config.model);
  const loaded = installed
    ? findModel(await ollama.ps({ signal }).catch(() => []), config.model)
    : undefined;
  return {
    ollama_version: version,
    model_installed: !!installed,
    model_loaded: !!loaded,
    ...(loaded?.contextLength ? { loaded_context: loaded.contextLength } : {}),
    ...(installed ? {} : {
      hint: `model "${config.model}" is not installed in Ollama: run \`ollama list\` to see what ` +
        `is, and \`ollama pull ${config.model}\` to install it`,
    }),
  };
}

export default defineTool({
  name: "status",
  title: "Status",
  description: prose(description),
  input: z.object({}),
  output: z.looseObject({ status: z.string() }),
  needs: ["read"],
  annotations: ANNOTATIONS.READS,
  async run(_args, ctx) {
    const config = await loadToolConfig(ctx.state.configPath, ctx.root);
    const tasks = await listTasks(ctx.root);
    const base = {
      project: basename(ctx.root),
      version: VERSION,
      model: config.model ?? null,
      ollama_host: config.ollama_host,
      checks: config.checks.map((c) => c.name),
      tasks: tasks.length,
      totals: taskTotals(tasks),
      tools_off: ctx.state.tools.off.map((t) => `${t.name}: ${t.why}`),
      ...(ctx.state.rootWarning ? { root_warning: ctx.state.rootWarning } : {}),
      ...(config.warnings.length ? { warnings: config.warnings.slice(0, 3) } : {}),
    };
    const hints: string[] = [];
    if (!config.exists) hints.push("no .localexec.json: run `localexec init` to write one");
    else if (!config.model) hints.push('add "model" to .localexec.json, e.g. "qwen2.5-coder:7b"');
    let model: Record<string, unknown>;
    try {
      model = await _model(config, ctx.signal);
    } catch (err) {
      hints.push(
        "start Ollama (`ollama serve`), then run `ollama list` to see the installed models",
      );
      throw new ToolError(errorLine(err), { ...base, hint: hints.join("; ") });
    }
    if (typeof model.hint === "string") hints.push(model.hint);
    const { hint: _, ...facts } = model;
    return { status: "ok", ...base, ...facts, ...(hints.length ? { hint: hints.join("; ") } : {}) };
  },
});
