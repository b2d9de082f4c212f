/** Short notes as a list, each as text (caveats of a term, data-quality notes of a table); nothing when empty. */
export function TextList({ items, label, testId }: { items: readonly string[]; label: string; testId: string }) {
  if (items.length === 0) return null;
  return (
    <ul className="knowledge-caveats muted" aria-label={label} data-testid={testId}>
      {items.map((item, i) => (
        <li key={i} className="knowledge-text">
          {item}
        </li>
      ))}
    </ul>
  );
}
