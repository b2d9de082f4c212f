import { describe, expect, it } from 'vitest';
import { ParserSqlGuard } from './parser-sql-guard.js';
import { excludeViewsReadingExcluded, viewQuery } from './view-policy.js';

const guard = new ParserSqlGuard();

describe('views over excluded tables', () => {
  it('reads the query of a SQLite CREATE VIEW after its first AS outside parentheses', () => {
    expect(viewQuery('sqlite', 'CREATE VIEW v AS SELECT 1')?.trim()).toBe('SELECT 1');
    expect(viewQuery('sqlite', 'CREATE VIEW "as" ("as") AS SELECT x AS y FROM t')?.trim()).toBe('SELECT x AS y FROM t');
    expect(viewQuery('sqlite', 'CREATE VIEW v')).toBeNull();
    expect(viewQuery('postgres', ' SELECT 1;')).toBe(' SELECT 1;');
  });

  it('excludes views reading an excluded table through any chain of views, and views it cannot read', async () => {
    const policy = await excludeViewsReadingExcluded(
      guard,
      'sqlite',
      [
        { schema: 'main', name: 'c', definition: 'CREATE VIEW c AS SELECT * FROM b' },
        { schema: 'main', name: 'b', definition: 'CREATE VIEW b AS SELECT * FROM a' },
        { schema: 'main', name: 'a', definition: 'CREATE VIEW a AS SELECT * FROM "Secrets"' },
        { schema: 'main', name: 'hidden', definition: null },
        { schema: 'main', name: 'odd."name', definition: 'CREATE VIEW x AS SELECT load_extension(1)' },
        { schema: 'main', name: 'clean', definition: 'CREATE VIEW clean AS SELECT * FROM customers' },
      ],
      { allowed: [], excluded: ['secrets'] },
    );
    expect(policy.excluded).toEqual(['secrets', '"main"."a"', '"main"."hidden"', '"main"."odd.""name"', '"main"."b"', '"main"."c"']);
  });
});
