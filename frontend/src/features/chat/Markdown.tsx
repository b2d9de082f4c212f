import { memo, type ComponentProps } from 'react';
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { highlightSql } from '../../lib/highlight-sql';
import { safeLink, shortUrl } from './markdown-links';

type HastNode = ExtraProps['node'];

/** The plain text of a markdown element (to tell whether a link already shows its own address). */
function textOf(node: HastNode | { type: string; value?: string; children?: unknown[] } | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return (node as { value: string }).value;
  return ((node as { children?: unknown[] }).children ?? []).map((child) => textOf(child as HastNode)).join('');
}

const components: Components = {
  // Wide markdown tables scroll inside the message instead of widening the page.
  table: (props: ComponentProps<'table'>) => (
    <div className="table-scroll">
      <table className="data-table" {...props} />
    </div>
  ),
  // Assistant text can be steered by text in the user's database: a link says where it goes, opens
  // without a referrer or a handle on this page, and only http(s) and mailto are links at all.
  a: ({ href, children, node }) => {
    const link = safeLink(href);
    if (!link) return <span className="md-link-refused">{children}</span>;
    const text = textOf(node).trim();
    const showsTarget = text === link.target || text === href || text === link.href;
    return (
      <>
        <a href={link.href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
        {!showsTarget && <span className="md-link-target"> ({link.target})</span>}
      </>
    );
  },
  // An image would be fetched the moment the text is shown (and again on every reload): never an
  // <img>, only a link the reader may follow, with its whole address in view.
  img: ({ src, alt }) => {
    const link = safeLink(typeof src === 'string' ? src : undefined);
    const label = `Image${alt ? `: ${alt}` : ''}`;
    if (!link) return <span className="md-image-refused">[{label}]</span>;
    return (
      <span className="md-image-link">
        [
        <a href={link.href} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
        ] <span className="md-link-target">({shortUrl(link.href)})</span>
      </span>
    );
  },
  code: ({ className, children }) => {
    const text = String(children ?? '');
    if (/\blanguage-sql\b/.test(className ?? '')) {
      return <code className="hljs language-sql" dangerouslySetInnerHTML={{ __html: highlightSql(text.replace(/\n$/, '')) }} />;
    }
    return <code className={className}>{children}</code>;
  },
};

/** Assistant text: GitHub-flavoured markdown (tables, code); raw HTML in it is not rendered, and it loads nothing. */
const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
      {text}
    </ReactMarkdown>
  );
});

export default Markdown;
