import type { ModelSpec, ProviderId, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';

/** What asking a server for its models gave. `models: null`: it answered but does not list models. */
export type ProbeOutcome = { ok: true; models: string[] | null } | { ok: false; reason: string };

export interface ChatModelFactoryOptions {
  streaming?: boolean;
}

/**
 * One source of models. The registry decides availability from three answers: is the provider
 * configured (`unconfiguredReason`), does it need asking (`probe`), and what did the server list.
 */
export interface ModelProvider {
  readonly id: ProviderId;
  /** Distinguishes instances with the same id (one per OpenAI-compatible endpoint). */
  readonly key: string;
  info(): ProviderInfo;
  /** Models known without asking the server; listed even when the provider is not configured. */
  catalog(): ModelSpec[];
  /** Why none of its models can be used (e.g. "DEEPSEEK_API_KEY is not set"), or null when configured. */
  unconfiguredReason(): string | null;
  /** Asks the server which models it serves. Absent when configuration alone decides availability. */
  probe?(signal: AbortSignal): Promise<ProbeOutcome>;
  /** "LM Studio at http://…/v1": names the server in reasons. */
  describe(): string;
  /** A model the server lists that is not in the catalog, or null to ignore it (e.g. embedding models). */
  discover?(upstreamId: string): ModelSpec | null;
  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel;
}
