import type { Dialect } from '@aigis/contracts';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { DialectGuard } from './dialect-guard.js';
import { reject } from './dialect-guard.js';
import { MysqlGuard } from './mysql.guard.js';
import { PostgresGuard } from './postgres.guard.js';
import { reasons } from './reasons.js';
import type { GuardOptions, GuardVerdict, SqlGuard } from './sql-guard.js';
import { SqliteGuard } from './sqlite.guard.js';

/**
 * Longest statement the guard parses. Parsing is synchronous, and node-sql-parser needs up to ~0.5 s for
 * 50,000 characters of `a + b + …`; no generated or hand-written query comes near this length.
 */
export const MAX_SQL_LENGTH = 50_000;

/**
 * Layer 1 of read-only execution: sends each statement to the guard of its connection's dialect.
 * What the guard passes may still run long (WITH RECURSIVE without an end is legal SQL) or call a
 * user-defined function that writes: the READ ONLY transaction and its statement timeout (layer 2) stop those.
 */
@Injectable()
export class ParserSqlGuard implements SqlGuard, OnModuleInit {
  private readonly guards: Record<Dialect, DialectGuard> = {
    postgres: new PostgresGuard(),
    mysql: new MysqlGuard(),
    sqlite: new SqliteGuard(),
  };

  async check(dialect: Dialect, sql: string, options: GuardOptions = {}): Promise<GuardVerdict> {
    // Dialect comes from stored connections; an unexpected value must still refuse, not throw.
    const guard = Object.hasOwn(this.guards, dialect) ? this.guards[dialect] : undefined;
    if (!guard) return reject(`unknown SQL dialect ${String(dialect)}`);
    if (sql.length > MAX_SQL_LENGTH) return reject(reasons.tooLong(sql.length, MAX_SQL_LENGTH));
    try {
      return await guard.check(sql, options);
    } catch (error) {
      // Fail closed: a parser crash (e.g. its stack overflowing on absurd nesting) refuses the statement.
      return reject(reasons.parseError(error instanceof Error ? error.message : String(error)));
    }
  }

  /** Loads the PostgreSQL parser (WASM) and the grammars now, so the first user query does not wait. */
  async warmUp(): Promise<void> {
    await Promise.all((Object.keys(this.guards) as Dialect[]).map((dialect) => this.check(dialect, 'SELECT 1')));
  }

  async onModuleInit(): Promise<void> {
    await this.warmUp();
  }
}
