import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/**
 * Makes `signal` abort every call of `model`. LangChain only takes a signal per call, and the
 * models that bindTools()/withConfig() derive delegate to these two methods, so they inherit it.
 * A signal passed at call time still works: either one aborts (and closes the upstream request).
 */
export function bindAbortSignal<M extends BaseChatModel>(model: M, signal: AbortSignal): M {
  // A view of the model, not a change to it: the registry shares one instance (and its HTTP client)
  // between calls, and each call gets its own signal.
  const bound = Object.create(model) as M;
  bound.invoke = (input, options) => model.invoke(input, withSignal(options, signal));
  bound._streamIterator = (input, options) => model._streamIterator(input, withSignal(options, signal));
  return bound;
}

function withSignal<O extends { signal?: AbortSignal }>(options: O | undefined, signal: AbortSignal): O {
  const own = options?.signal;
  return { ...options, signal: own && own !== signal ? AbortSignal.any([own, signal]) : signal } as O;
}
