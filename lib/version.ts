/** The version `--version`, `status` and the MCP handshake report. */
export const VERSION = "0.1.0";
