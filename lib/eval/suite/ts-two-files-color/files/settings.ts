/** What the command line can change. */
export interface Settings {
  verbose: boolean;
  output: string;
}

export function defaults(): Settings {
  return { verbose: false, output: "-" };
}
