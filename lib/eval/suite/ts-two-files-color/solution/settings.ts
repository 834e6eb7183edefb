/** What the command line can change. */
export interface Settings {
  verbose: boolean;
  output: string;
  color: boolean;
}

export function defaults(): Settings {
  return { verbose: false, output: "-", color: true };
}
