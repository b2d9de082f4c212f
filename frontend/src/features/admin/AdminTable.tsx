import type { ReactNode } from 'react';

/** An admin list as a table that scrolls sideways on a narrow screen: a header row when `headers` are given, then a row per item. */
export function AdminTable<T>({ testId, headers, items, row }: { testId: string; headers?: string[]; items: T[]; row: (item: T) => ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="admin-table" data-testid={testId}>
        {headers && (
          <thead>
            <tr>
              {headers.map((h, i) => (
                <th key={i}>{h}</th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>{items.map(row)}</tbody>
      </table>
    </div>
  );
}
