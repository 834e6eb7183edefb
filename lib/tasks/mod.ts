/**
 * The task store under `<root>/.localexec/`: the API `implement_task`, `revert_task`,
 * `list_tasks`, `show_patch` and `run_checks` share. Call the writing functions while holding the
 * project lock (`withProjectLock`, exported here from `lock.ts`), passing the task id to the lock.
 *
 * Files per task: `<id>.json` (record), `<id>.orig/` (backups + `manifest.json`), `<id>.patch`
 * (whole diff against the backups), `<id>.log` (everything that happened).
 *
 * Typical run: `beginTask` → (`applyFiles`, `updateTask`, `appendLog`)* → `writePatch` →
 * `updateTask({status, finished})`. A run killed at any point reads as `interrupted` and can be
 * reverted with `revertTask`.
 */
export {
  ensureStore,
  storeDir,
  storeRel,
  TASK_ID,
  type TaskPaths,
  taskPaths,
  tempFolder,
} from "./dir.ts";
export {
  appendLog,
  listTasks,
  noteTemps,
  provisionalRecord,
  readRecord,
  readTask,
  type TaskPatch,
  type TaskRecord,
  type TaskStatus,
  type TaskTotals,
  taskTotals,
  unknownTask,
  updateTask,
  viewRecord,
  writeRecord,
} from "./store.ts";
export {
  type BeginOptions,
  type BeginResult,
  beginTask,
  type Manifest,
  type ManifestEntry,
  newDirs,
  readCurrent,
  readManifest,
  readOriginal,
  resolveTaskFiles,
} from "./backup.ts";
export {
  applyFiles,
  type ApplyOptions,
  type FileEdits,
  type PatchSummary,
  taskDiff,
  TreeChangedError,
  writePatch,
} from "./apply.ts";
export {
  type Change,
  type Conflict,
  landChanges,
  type LandOutcome,
  type UndoOptions,
  type UndoOutcome,
  undoWrites,
} from "./land.ts";
export {
  hashOf,
  keepBlob,
  noteSeen,
  readBlob,
  type Without,
  withoutWrites,
  type WriteEntry,
} from "./history.ts";
export {
  askToCancel,
  cancelAsked,
  claimOf,
  clearCancel,
  holdPending,
  type Pending,
  pendingAlive,
  TaskRunningError,
} from "./requests.ts";
export { type RevertOptions, type RevertResult, revertTask } from "./revert.ts";
export { removeStaleTemps } from "./stale.ts";
export { lockHolder, LockTimeoutError, withProjectLock } from "./lock.ts";
export {
  type Claim,
  claimAlive,
  claimFiles,
  ClaimTimeoutError,
  type HeldClaim,
  liveClaims,
  removeStaleClaims,
} from "./claims.ts";
export {
  LINKED,
  makeWorkspace,
  prepareStandby,
  releaseWorkspace,
  removeWorkspace,
  workspaceBase,
  type WorkspaceOptions,
  workspacePath,
  writeWork,
} from "./workspace.ts";
export { type Landing, landings, noteLanded, syncLanded } from "./landed.ts";
export { reducePatch } from "./patch.ts";
export {
  median,
  RECORD_ROW_OUTPUT,
  type RecordFacts,
  type RecordRow,
  recordRows,
  savedTokens,
  SAVINGS_SHAPE,
  taskKind,
  TOTALS_OUTPUT,
} from "./stats.ts";
