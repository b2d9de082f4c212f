import { bindAbortSignal } from './abort-signal.js';
import type { ChatModelOptions, ModelSpec, ToolCallingChatModel } from './model-entry.js';
import type { ModelProvider } from './providers/provider.js';

/**
 * LangChain chat models, one instance per spec object and streaming option: the instance (its HTTP client and
 * connection pool with it) is reused; a spec that changes (a server that renames a model) is a new object and gets
 * a new instance.
 */
export class ChatModelCache {
  private readonly instances = new WeakMap<ModelSpec, Map<string, ToolCallingChatModel>>();

  /** The model for `spec`, bound to `options.signal` when given (every call, and models derived by bindTools). */
  get(provider: ModelProvider, spec: ModelSpec, options: ChatModelOptions): ToolCallingChatModel {
    const key = String(options.streaming);
    let perSpec = this.instances.get(spec);
    if (!perSpec) this.instances.set(spec, (perSpec = new Map()));
    let model = perSpec.get(key);
    if (!model) perSpec.set(key, (model = provider.createChatModel(spec, { streaming: options.streaming })));
    return options.signal ? bindAbortSignal(model, options.signal) : model;
  }
}
