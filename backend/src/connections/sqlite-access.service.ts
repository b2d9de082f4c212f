import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { SqliteFilesResponse } from '@aigis/contracts';
import { appOwnFiles } from '../config/app-files.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { DEMO_STORE_FILE_NAME } from '../demo/demo-store.generator.js';
import { SqliteGrantsRepository } from '../storage/repositories/sqlite-grants.repository.js';
import { UsersRepository } from '../storage/repositories/users.repository.js';
import { listSqliteFiles, resolveSqliteFile, type SqliteScope } from './sqlite-files.js';

/**
 * Which SQLite files under SQLITE_ROOT a user may connect to: an admin, any; a member, those in their
 * own folder (`SQLITE_ROOT/<user id>/`), the paths an admin granted them, and the app's generated demo
 * store. Checked when a connection is saved and again each time it is used, so a revoked grant or a
 * demoted admin loses access at once.
 */
@Injectable()
export class SqliteAccess {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly grants: SqliteGrantsRepository,
  ) {}

  async scopeFor(userId: string): Promise<SqliteScope> {
    const user = await this.users.findById(userId);
    if (user?.role === 'admin') return { everything: true };
    const root = this.config.sqliteRoot;
    const within = [path.join(root, userId), ...(await this.grants.pathsFor(userId)).map((p) => path.resolve(root, p))];
    if (this.config.mode === 'embedded' && this.config.DEMO_DATABASE) within.push(path.join(root, DEMO_STORE_FILE_NAME));
    return { everything: false, within };
  }

  /** The absolute path of a file this user may open; one message for missing and forbidden files. */
  async resolve(userId: string, requested: string): Promise<string> {
    return resolveSqliteFile(this.config.sqliteRoot, requested, appOwnFiles(this.config), await this.scopeFor(userId));
  }

  async list(userId: string): Promise<SqliteFilesResponse> {
    const files = listSqliteFiles(this.config.sqliteRoot, appOwnFiles(this.config), 500, await this.scopeFor(userId));
    return { root: this.config.sqliteRoot, folder: `${userId}/`, files };
  }
}
