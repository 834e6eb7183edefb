/**
 * implement_task: have the local model make one small, precisely specified change, verified by
 * the project's checks. The loop lives in `lib/implement/`, loaded on first use.
 */
import { z } from "zod";
import description from "./implement_task.md" with { type: "text" };
import {
  ANNOTATIONS,
  clientWaitS,
  defineTool,
  prose,
  type ServerState,
  thrownJson,
  type ToolContext,
} from "../lib/mcp/mod.ts";
import { loadToolConfig } from "../lib/config.ts";
import { PROVIDERS } from "../lib/providers/mod.ts";
import {
  configRungs,
  ENGINE_NEEDS,
  errorVerdict,
  implementTask,
  VERDICT_SHAPE,
} from "../lib/implement/mod.ts";
import { TASK_ID } from "../lib/tasks/mod.ts";
import { ToolError } from "../lib/errors.ts";

/** The `wait_s` a call without one gets, and the model its first attempt will ask. */
async function _defaults(
  state: ServerState,
  model: string | undefined,
  warn?: (text: string) => void,
): Promise<{ waitS?: number; model?: string }> {
  // (A config that does not load: the engine's own error says why.)
  const config = await loadToolConfig(state.configPath, state.root, PROVIDERS, warn).catch(() =>
    undefined
  );
  let first: string | undefined;
  try {
    first = config ? configRungs(config)[0]?.model : undefined;
  } catch {
    // A bad ladder: the engine's own error says so.
  }
  return {
    waitS: state.waitS ?? config?.wait_s ?? clientWaitS(state.client),
    model: model ?? first,
  };
}

const tool = defineTool({
  name: "implement_task",
  title: "Implement task with the local model",
  description: prose(description),
  input: z.object({
    task_id: z.string().regex(
      TASK_ID,
      "letters, digits, ., _ and -, up to 64 characters",
    ).describe("Unique id such as T1-add-retry"),
    spec: z.string().min(1).max(100_000).describe(
      "Precise instructions: goal, signatures, edge cases and acceptance",
    ),
    files_to_edit: z.array(z.string().max(4096)).min(1).max(2).describe(
      "One or two project-relative paths; new files must be listed too",
    ),
    context_files: z.array(z.string().max(4096)).max(20).optional().describe(
      "Read-only files the model should see",
    ),
    checks: z.array(z.string().max(64)).max(20).optional().describe(
      "Checks from .localexec.json; default all; [] runs none",
    ),
    symbols: z.array(z.string().max(4096)).max(20).optional().describe(
      "path::name entries: show the model only these functions or classes",
    ),
    model: z.string().min(1).max(200).optional().describe(
      "Start at the ladder's rung with this model (see status); default the first rung",
    ),
    wait_s: z.number().min(0).max(86_400).optional().describe(
      "Seconds to wait for the verdict; after them the answer is running and wait_tasks collects it",
    ),
  }),
  output: z.looseObject({
    ...VERDICT_SHAPE,
    task_id: z.string().optional().describe("running: the task to collect with wait_tasks"),
  }),
  needs: ENGINE_NEEDS,
  annotations: ANNOTATIONS.CHANGES,
  async run({ wait_s, ...input }, ctx) {
    const { tasks } = ctx.state;
    const id = input.task_id;
    if (tasks.isRunning(id)) {
      throw new ToolError(`task ${id} is still running in the background: call wait_tasks`);
    }
    const defaults = await _defaults(ctx.state, input.model, ctx.warn);
    // `localexec call` exits after its answer: it always waits for the verdict.
    const waitS = ctx.state.once ? undefined : wait_s ?? defaults.waitS;
    // Settles once the task has a record, or ended without one: `running` is answered only then,
    // so a task killed right after that answer is still listed (list_tasks, revert_task).
    let recorded!: () => void;
    const hasRecord = new Promise<void>((resolve) => recorded = resolve);
    tasks.start(id, async (hooks) => {
      const own = { root: ctx.root, signal: hooks.signal };
      try {
        // The engine's own context: it never sees the MCP layer's.
        return await implementTask(input, {
          ...own,
          progress: (message, at) => hooks.progress(message, at),
          // `localexec call` exits after its answer: no standby copy is begun that it would cut.
          config: async () => {
            const config = await loadToolConfig(ctx.state.configPath, ctx.root, PROVIDERS);
            return ctx.state.once ? { ...config, workspace_standby: false } : config;
          },
          slots: ctx.state.slots,
          rounds: ctx.state.rounds,
          recorded,
          log: (message) => console.error(`localexec: ${message}`),
        });
      } catch (err) {
        return thrownJson(tool, err, own);
      } finally {
        recorded();
      }
    });
    const ms = waitS === undefined ? Infinity : waitS * 1000;
    const follow = (wait: number) => tasks.follow(id, wait, ctx.signal, (m) => ctx.progress(m));
    const result = await follow(ms);
    if (result) return result;
    await hasRecord;
    return await follow(0) ?? _running(ctx, id, waitS!, defaults.model);
  },
  errorFields(message) {
    const { attempts, why, escalate } = errorVerdict(message);
    return { attempts, why, escalate };
  },
});

export default tool;

/** The answer of a call whose verdict was not ready within `waitS`: the task goes on. */
function _running(ctx: ToolContext, id: string, waitS: number, model?: string) {
  const at = ctx.state.tasks.view(id);
  const shown = at?.model ?? model;
  return {
    status: "running",
    task_id: id,
    attempts: at?.attempt ?? 0,
    ...(shown !== undefined ? { model: shown } : {}),
    escalate: false,
    why: `no verdict within wait_s ${waitS} s; the task goes on in the server: call wait_tasks ` +
      "to collect its verdict (list_tasks shows it running)",
  };
}
