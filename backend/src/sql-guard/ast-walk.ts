/**
 * Visits every property of a parser's JSON tree, depth first. The guard looks for node kinds (a DELETE,
 * a function call, a table reference) wherever they occur, so it walks everything rather than following
 * the grammar: a construct the guard did not anticipate is still visited.
 * The visitor returns a reason to stop the walk with that reason.
 */
export type AstVisitor = (key: string, value: unknown, parent: Record<string, unknown>) => string | undefined;

export function walkAst(root: unknown, visit: AstVisitor): string | undefined {
  // An explicit stack: `a + b + c + …` nests thousands deep, beyond the call stack.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const record = node as Record<string, unknown>;
    const keys = Object.keys(record);
    for (const key of keys) {
      const found = visit(key, record[key], record);
      if (found) return found;
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push(record[keys[i]!]);
  }
  return undefined;
}
