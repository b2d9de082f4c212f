export type { GuardVerdict, SqlGuard } from './sql-guard.js';
export { ParserSqlGuard } from './parser-sql-guard.js';
export type { DialectGuard, GuardOptions } from './dialect-guard.js';
export { PostgresGuard } from './postgres.guard.js';
export { MysqlGuard } from './mysql.guard.js';
export { SqliteGuard } from './sqlite.guard.js';
export { READ_ONLY_RULE } from './reasons.js';
export { allowedFunctionProblem, MAX_ALLOWED_FUNCTIONS } from './allowed-functions.js';
