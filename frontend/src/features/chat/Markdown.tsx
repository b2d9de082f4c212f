import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { highlightSql } from '../results/highlight';

const components: Components = {
  // Wide markdown tables scroll inside the message instead of widening the page.
  table: (props: ComponentProps<'table'>) => (
    <div className="table-scroll">
      <table className="data-table" {...props} />
    </div>
  ),
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  ),
  code: ({ className, children }) => {
    const text = String(children ?? '');
    if (/\blanguage-sql\b/.test(className ?? '')) {
      return <code className="hljs language-sql" dangerouslySetInnerHTML={{ __html: highlightSql(text.replace(/\n$/, '')) }} />;
    }
    return <code className={className}>{children}</code>;
  },
};

/** Assistant text: GitHub-flavoured markdown (tables, code); raw HTML in it is not rendered. */
const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
      {text}
    </ReactMarkdown>
  );
});

export default Markdown;
