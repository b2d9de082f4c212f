export { ParserSqlGuard } from './parser-sql-guard.js';
