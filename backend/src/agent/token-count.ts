import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

/**
 * Tokens counted with a real BPE tokenizer (o200k_base, GPT-4o's; its ranks ship inside the package, so it works
 * offline). Other families' tokenizers differ by some percent, which the answer reserve absorbs.
 */
const encoder = new Tiktoken(o200kBase);

/** Per message: the role and separators a chat format adds around the content. */
const MESSAGE_OVERHEAD = 4;

/** Messages of one run are counted again at every step: each is counted once. */
const counted = new WeakMap<BaseMessage, number>();

/**
 * Text is encoded in pieces of at most this many characters, cut before a space where there is one: BPE merges
 * within one pre-tokenised word take time quadratic in its length, and a hostile message can be one
 * 100,000-character word. A cut inside such a word adds at most a token per piece (a count a little high, safe).
 */
const PIECE_CHARS = 128;

/**
 * Texts already counted, by their text: every turn reads the thread back from its checkpoint as new message
 * objects, so without this the whole history was tokenised again at every model call (measured: a third of a
 * turn's CPU). Bounded by the characters it holds; the oldest go first.
 */
const MEMO_MAX_CHARS = 4_000_000;
const MEMO_MIN_CHARS = 64;
const memo = new Map<string, number>();
let memoChars = 0;

export function countTextTokens(text: string): number {
  if (text.length < MEMO_MIN_CHARS || text.length > MEMO_MAX_CHARS / 4) return encodeCount(text);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const tokens = encodeCount(text);
  memo.set(text, tokens);
  memoChars += text.length;
  for (const oldest of memo.keys()) {
    if (memoChars <= MEMO_MAX_CHARS) break;
    memo.delete(oldest);
    memoChars -= oldest.length;
  }
  return tokens;
}

/** What the memo holds (for tests). */
export function tokenMemoSize(): { texts: number; chars: number } {
  return { texts: memo.size, chars: memoChars };
}

function encodeCount(text: string): number {
  let tokens = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + PIECE_CHARS, text.length);
    if (end < text.length) {
      // tiktoken's words carry their leading space: cutting before one splits no word.
      const space = text.lastIndexOf(' ', end);
      if (space > start) end = space;
      // Never between the two halves of a surrogate pair.
      else if (/[\uDC00-\uDFFF]/.test(text[end]!)) end++;
    }
    tokens += encoder.encode(text.slice(start, end)).length;
    start = end;
  }
  return tokens;
}

export function countMessageTokens(message: BaseMessage): number {
  const known = counted.get(message);
  if (known !== undefined) return known;
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  const calls = AIMessage.isInstance(message) && message.tool_calls?.length ? JSON.stringify(message.tool_calls) : '';
  const tokens = countTextTokens(content) + countTextTokens(calls) + MESSAGE_OVERHEAD;
  counted.set(message, tokens);
  return tokens;
}

export function countTokens(messages: BaseMessage[]): number {
  return messages.reduce((sum, m) => sum + countMessageTokens(m), 0);
}
