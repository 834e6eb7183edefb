/** Parses durations such as "90s", "15m" or "1h30m" into seconds. */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(trimmed);
  if (!match || trimmed === "") throw new SyntaxError(`bad duration: "${text}"`);
  const [, hours, minutes, seconds] = match;
  return Number(hours ?? 0) * 3600 + Number(minutes ?? 0) + Number(seconds ?? 0);
}

/** Formats seconds as the shortest duration parseDuration reads back. */
export function formatDuration(total: number): string {
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const out = `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}`;
  return out || "0s";
}
