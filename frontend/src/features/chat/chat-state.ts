import type { ReviewProposal, StreamEvent, ThreadMessage, ToolResultContent } from '@aigis/contracts';

/**
 * Chat state as a pure reducer over stream events. `messages` has exactly the shape that
 * `GET /api/chat/:id` answers (`ThreadMessage[]`), so a streamed turn and a reloaded thread render
 * through the same components:
 *   user → assistant {content, tool_calls?} → tool {tool_call_id, result} → … → assistant {content}
 */

export type TurnStatus = 'streaming' | 'done' | 'stopped' | 'error';

/** What happened to a turn that did not end normally. Kept beside the messages: the server stores no such note. */
export type TurnNotice = { kind: 'stopped' } | { kind: 'error'; code: string; message: string };

export interface Turn {
  id: string;
  /** Index in `messages` of the turn's user message. */
  start: number;
  status: TurnStatus;
  /** Whether any `chunk` arrived (decides whether `end.full_response` must become a message). */
  textSeen: boolean;
  /** Counter for the ids of messages created in this turn (ids are derived, so the reducer stays pure). */
  seq: number;
}

export interface ChatState {
  messages: ThreadMessage[];
  turn: Turn | null;
  /** Notices keyed by the id of the message they follow. */
  notices: Record<string, TurnNotice>;
  /** A query waiting for the person's decision (review before run), from `confirm_required` or the loaded thread. */
  pendingReview: ReviewProposal | null;
}

export type ChatAction =
  | { type: 'load'; messages: ThreadMessage[]; pendingReview?: ReviewProposal | null }
  | { type: 'start'; turnId: string; content: string }
  | { type: 'resume'; turnId: string }
  | { type: 'event'; event: StreamEvent }
  | { type: 'abort' }
  | { type: 'local_error'; code: string; message: string };

export const emptyChat: ChatState = { messages: [], turn: null, notices: {}, pendingReview: null };

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'load':
      return { messages: action.messages, turn: null, notices: {}, pendingReview: action.pendingReview ?? null };
    case 'start':
      return startTurn(state, action.turnId, action.content);
    case 'resume':
      return resumeTurn(state, action.turnId);
    case 'event':
      return reduceStream(state, action.event);
    case 'abort':
      return abortTurn(state);
    case 'local_error':
      return failTurn(state, action.code, action.message);
  }
}

export function isStreaming(state: ChatState): boolean {
  return state.turn?.status === 'streaming';
}

/** The user sent a message: it shows at once and the turn starts streaming. */
export function startTurn(state: ChatState, turnId: string, content: string): ChatState {
  if (isStreaming(state)) return state;
  const user: ThreadMessage = { id: `${turnId}:user`, role: 'user', content };
  return {
    ...state,
    messages: [...state.messages, user],
    // A new message refuses a waiting proposal (the server records it as superseded).
    pendingReview: null,
    turn: { id: turnId, start: state.messages.length, status: 'streaming', textSeen: false, seq: 0 },
  };
}

/**
 * The person decided on the waiting query: the paused turn goes on streaming (its tool result, then the
 * answer) with no new user message. It starts after the last message, so the call it answers is found by id.
 */
export function resumeTurn(state: ChatState, turnId: string): ChatState {
  if (isStreaming(state)) return state;
  const owner = state.pendingReview ? findCallOwner(state.messages, 0, state.pendingReview.tool_call_id) : -1;
  return {
    ...state,
    pendingReview: null,
    turn: { id: turnId, start: owner === -1 ? state.messages.length : owner, status: 'streaming', textSeen: false, seq: 0 },
  };
}

/** One stream event. Events that arrive when no turn is streaming (after Stop) are ignored. */
export function reduceStream(state: ChatState, event: StreamEvent): ChatState {
  const turn = state.turn;
  if (!turn || turn.status !== 'streaming') return state;
  const messages = state.messages;
  const last = messages.length - 1 >= turn.start ? messages[messages.length - 1] : undefined;

  switch (event.type) {
    case 'chunk': {
      const text = event.data.content;
      if (!text) return state;
      const nextTurn = { ...turn, textSeen: true };
      // Text continues the assistant message being written, unless that message already handed off to tools.
      if (last?.role === 'assistant' && !last.tool_calls?.length) {
        return { ...state, turn: nextTurn, messages: replaceLast(messages, { ...last, content: last.content + text }) };
      }
      const [id, seqTurn] = nextId(nextTurn);
      return { ...state, turn: seqTurn, messages: [...messages, { id, role: 'assistant', content: text }] };
    }

    case 'tool_call': {
      const call = { id: event.data.id, name: event.data.name, args: event.data.args ?? {} };
      const owner = findCallOwner(messages, turn.start, call.id);
      if (owner !== -1) {
        // The same call announced again (args completed): update it in place.
        const msg = messages[owner];
        const tool_calls = msg.tool_calls!.map((c) => (c.id === call.id ? call : c));
        return { ...state, messages: messages.map((m, i) => (i === owner ? { ...msg, tool_calls } : m)) };
      }
      // Parallel calls of one model step share one assistant message, as LangChain stores them.
      if (last?.role === 'assistant') {
        return {
          ...state,
          messages: replaceLast(messages, { ...last, tool_calls: [...(last.tool_calls ?? []), call] }),
        };
      }
      const [id, nextTurn] = nextId(turn);
      return {
        ...state,
        turn: nextTurn,
        messages: [...messages, { id, role: 'assistant', content: '', tool_calls: [call] }],
      };
    }

    case 'tool_result': {
      const [id, nextTurn] = nextId(turn);
      const tool: ThreadMessage = {
        id,
        role: 'tool',
        content: toolContentText(event.data.content),
        tool_call_id: event.data.id,
        tool_name: event.data.name,
        result: event.data.content,
      };
      return { ...state, turn: nextTurn, messages: [...messages, tool] };
    }

    case 'confirm_required':
      return { ...state, pendingReview: event.data };

    case 'end': {
      const full = event.data.full_response ?? '';
      const done = { ...turn, status: 'done' as const };
      // A turn without streamed tokens (a provider that does not stream) still gets its answer.
      if (!turn.textSeen && full.trim()) {
        const [id, nextTurn] = nextId(done);
        return { ...state, turn: nextTurn, messages: [...messages, { id, role: 'assistant', content: full }] };
      }
      return { ...state, turn: done };
    }

    case 'error':
      return failTurn(state, event.data.code || 'STREAM_ERROR', event.data.error || 'The answer failed.');
  }
}

/** Stop: what arrived stays, the turn is marked stopped. */
export function abortTurn(state: ChatState): ChatState {
  if (!isStreaming(state)) return state;
  return closeTurn(state, 'stopped', { kind: 'stopped' });
}

/** An error before or during the stream (HTTP error, network, `error` event): what arrived stays. */
export function failTurn(state: ChatState, code: string, message: string): ChatState {
  if (!isStreaming(state)) return state;
  return closeTurn(state, 'error', { kind: 'error', code, message });
}

function closeTurn(state: ChatState, status: TurnStatus, notice: TurnNotice): ChatState {
  const anchor = state.messages[state.messages.length - 1];
  return {
    ...state,
    turn: { ...state.turn!, status },
    notices: anchor ? { ...state.notices, [anchor.id]: notice } : state.notices,
  };
}

function nextId(turn: Turn): [string, Turn] {
  const seq = turn.seq + 1;
  return [`${turn.id}:${seq}`, { ...turn, seq }];
}

function replaceLast(messages: ThreadMessage[], msg: ThreadMessage): ThreadMessage[] {
  const copy = messages.slice();
  copy[copy.length - 1] = msg;
  return copy;
}

function findCallOwner(messages: ThreadMessage[], from: number, callId: string): number {
  for (let i = messages.length - 1; i >= from; i--) {
    if (messages[i].tool_calls?.some((c) => c.id === callId)) return i;
  }
  return -1;
}

/** The text form of a tool result, as a ToolMessage's `content` holds it. */
function toolContentText(content: ToolResultContent): string {
  if (content?.type === 'text') return content.text;
  return JSON.stringify(content);
}
