import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module.js';
import { ParserSqlGuard } from '../sql-guard/parser-sql-guard.js';
import { QueryController } from './query.controller.js';
import { ReadOnlyExecutor, SQL_GUARD } from './read-only-executor.js';

/** The read-only execution path: the SQL guard, the executor over a connection's adapter, and the query route. */
@Module({
  imports: [ConnectionsModule],
  controllers: [QueryController],
  providers: [{ provide: SQL_GUARD, useClass: ParserSqlGuard }, ReadOnlyExecutor],
  exports: [ReadOnlyExecutor],
})
export class QueryModule {}
