export * from './stream-events.js';
export * from './sse-parser.js';
export * from './api.js';
export * from './estimate-words.js';
export * from './errors.js';
export * from './knowledge.js';
export * from './schemas/index.js';
export * from './connection-url.js';
