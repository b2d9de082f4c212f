import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/**
 * Makes `signal` abort every call of `model`. LangChain only takes a signal per call, and the
 * models that bindTools()/withConfig() derive delegate to these two methods, so they inherit it.
 * A signal passed at call time still works: either one aborts (and closes the upstream request).
 */
export function bindAbortSignal<M extends BaseChatModel>(model: M, signal: AbortSignal): M {
  const invoke = model.invoke.bind(model);
  const streamIterator = model._streamIterator.bind(model);
  model.invoke = (input, options) => invoke(input, withSignal(options, signal));
  model._streamIterator = (input, options) => streamIterator(input, withSignal(options, signal));
  return model;
}

function withSignal<O extends { signal?: AbortSignal }>(options: O | undefined, signal: AbortSignal): O {
  const own = options?.signal;
  return { ...options, signal: own && own !== signal ? AbortSignal.any([own, signal]) : signal } as O;
}
