export * from './stream-events.js';
export * from './sse-parser.js';
export * from './api.js';
export * from './estimate-words.js';
