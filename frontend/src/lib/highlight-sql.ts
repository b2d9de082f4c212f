import hljs from 'highlight.js/lib/core';
import sql from 'highlight.js/lib/languages/sql';

// Only the SQL grammar: the full highlight.js bundle would triple the first load.
hljs.registerLanguage('sql', sql);

/** SQL as highlighted HTML (highlight.js escapes the input). */
export function highlightSql(code: string): string {
  return hljs.highlight(code, { language: 'sql', ignoreIllegals: true }).value;
}
