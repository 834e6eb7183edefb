import { defaults, type Settings } from "./settings.ts";

/** Reads `argv` (without the program name) into settings; unknown flags throw. */
export function parseArgs(argv: string[]): Settings {
  const settings = defaults();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-v" || arg === "--verbose") settings.verbose = true;
    else if (arg === "-o" || arg === "--output") {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      settings.output = value;
    } else throw new Error(`unknown flag ${arg}`);
  }
  return settings;
}
