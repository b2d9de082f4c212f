export * from './stream-events.js';
export * from './sse-parser.js';
export * from './api.js';
