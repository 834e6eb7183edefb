/**
 * The MCP server side of the protocol, as much of the SDK's `Server` as localexec uses: the
 * initialize handshake (version negotiation, capabilities, instructions), `initialized`, the
 * client's capabilities and `roots/list`. Built on the SDK's `Protocol` (requests, notifications,
 * cancellation, progress, ping, timeouts), so messages are handled exactly as before.
 *
 * Why not the SDK's `Server`: its module loads Ajv and the experimental task helpers at import
 * (about 30 ms of every start on a 2-core machine, a quarter of spawn → tools/list), for
 * elicitation and sampling, which this server never asks for.
 */
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
import { Protocol, type RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type ClientCapabilities,
  InitializedNotificationSchema,
  InitializeRequestSchema,
  LATEST_PROTOCOL_VERSION,
  type ListRootsResult,
  ListRootsResultSchema,
  type Notification,
  type Request,
  type Result,
  type ServerCapabilities,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";

/** What the server says about itself in the handshake. */
export interface LeanServerOptions {
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** An MCP server: the handshake and `roots/list`; handlers are added with `setRequestHandler`. */
export class LeanServer extends Protocol<Request, Notification, Result> {
  #clientCapabilities?: ClientCapabilities;
  #clientName?: string;
  /** Called when the client says `notifications/initialized`. */
  oninitialized?: () => void;

  constructor(
    private readonly info: { name: string; version: string },
    private readonly options: LeanServerOptions,
  ) {
    super();
    this.setRequestHandler(InitializeRequestSchema, (request) => {
      const asked = request.params.protocolVersion;
      this.#clientCapabilities = request.params.capabilities;
      this.#clientName = request.params.clientInfo?.name;
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
          ? asked
          : LATEST_PROTOCOL_VERSION,
        capabilities: this.options.capabilities,
        serverInfo: this.info,
        ...(this.options.instructions ? { instructions: this.options.instructions } : {}),
      };
    });
    this.setNotificationHandler(InitializedNotificationSchema, () => this.oninitialized?.());
  }

  /** The capabilities the client declared in `initialize` (undefined before). */
  getClientCapabilities(): ClientCapabilities | undefined {
    return this.#clientCapabilities;
  }

  /** The client's name from `initialize` (`clientInfo.name`; undefined before). */
  getClientName(): string | undefined {
    return this.#clientName;
  }

  /** Asks the client for its roots. */
  listRoots(params?: Record<string, unknown>, options?: RequestOptions): Promise<ListRootsResult> {
    return this.request({ method: "roots/list", params }, ListRootsResultSchema, options);
  }

  protected assertCapabilityForMethod(method: string): void {
    if (method === "roots/list" && !this.#clientCapabilities?.roots) {
      throw new Error(`Client does not support listing roots (required for ${method})`);
    }
  }

  protected assertNotificationCapability(_method: string): void {}

  protected assertRequestHandlerCapability(_method: string): void {}

  protected assertTaskCapability(_method: string): void {}

  protected assertTaskHandlerCapability(_method: string): void {}
}
