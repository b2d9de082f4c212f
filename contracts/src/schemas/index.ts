export * from './auth.js';
export * from './chat.js';
export * from './connections.js';
export * from './errors.js';
export * from './knowledge.js';
export * from './responses.js';
