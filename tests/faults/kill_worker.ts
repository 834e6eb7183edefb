/// <reference lib="deno.worker" />
/**
 * The killer for kill_test.ts: spins (no timers, which would add milliseconds) until the moment it
 * was given shows on disk (or the server stopped itself there), then SIGKILLs the server; it says
 * whether the moment was seen before its deadline. A worker, so the test's scripted Ollama keeps
 * answering meanwhile.
 */
import { processState } from "../helpers/proc.ts";

function _exists(p: string): boolean {
  try {
    Deno.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function _temp(dir: string): boolean {
  try {
    return [...Deno.readDirSync(dir)].some((e) => e.name.endsWith(".localexec-tmp"));
  } catch {
    return false;
  }
}

self.onmessage = async (e: MessageEvent) => {
  const { root, moment, pid, calc, paused } = e.data as {
    root: string;
    moment: string;
    pid: number;
    calc: string;
    /** The server stops itself at this moment: wait for that, not for the disk. */
    paused: boolean;
  };
  const deadline = Date.now() + 60_000;
  let seen = true;
  const spin = (see: () => boolean) => {
    while (!see() && Date.now() < deadline) { /* spin */ }
    seen = see();
  };
  const changed = () => {
    try {
      return Deno.readTextFileSync(`${root}/calc.py`) !== calc;
    } catch {
      return true;
    }
  };
  const record = `${root}/.localexec/T1.json`;
  if (paused) spin(() => processState(pid) === "T");
  else if (moment === "calc.py changed") spin(changed);
  else if (moment === "newdir appears") spin(() => _exists(`${root}/newdir`));
  else if (moment === "temp file of calc.py") spin(() => _temp(root));
  else if (moment === "temp file in newdir/deeper") spin(() => _temp(`${root}/newdir/deeper`));
  else if (moment === "new.py appears") spin(() => _exists(`${root}/newdir/deeper/new.py`));
  else if (moment === "backups made") {
    spin(() => _exists(`${root}/.localexec/T1.orig/manifest.json`));
  } else if (moment === "during the check") {
    spin(() => _exists(`${root}/newdir/deeper/new.py`));
    await new Promise((r) => setTimeout(r, 500));
  } else {
    spin(() => _exists(record));
    await new Promise((r) => setTimeout(r, Number(/\+(\d+)ms/.exec(moment)![1])));
  }
  Deno.kill(pid, "SIGKILL");
  const tempAtKill = [root, `${root}/newdir`, `${root}/newdir/deeper`].some(_temp);
  self.postMessage({ tempAtKill, seen });
};
