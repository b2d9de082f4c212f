import { lazy, Suspense } from 'react';

// The markdown pipeline (react-markdown, remark-gfm, micromark) is about half of the app's own
// weight; it loads after the first paint, and plain text stands in for the moment it takes.
const loadMarkdown = () => import('./Markdown');
const Markdown = lazy(loadMarkdown);

/** Starts loading the markdown renderer ahead of need (called once a thread is open). */
export function preloadMarkdown(): void {
  void loadMarkdown();
}

export function MarkdownText({ text }: { text: string }) {
  return (
    <Suspense fallback={<p className="markdown-plain">{text}</p>}>
      <Markdown text={text} />
    </Suspense>
  );
}
