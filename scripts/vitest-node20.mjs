// Node 20 lacks Map.groupBy, which vitest 5's reporter uses when it prints a failure;
// without it a failing test crashes the reporter instead of showing the assertion.
if (!Map.groupBy) {
  Map.groupBy = (items, key) => {
    const groups = new Map();
    let index = 0;
    for (const item of items) {
      const k = key(item, index++);
      const group = groups.get(k);
      if (group) group.push(item);
      else groups.set(k, [item]);
    }
    return groups;
  };
}
