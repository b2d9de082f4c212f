import { describe, expect, it } from 'vitest';
import { ThinkFilter } from './think-filter.js';

describe('ThinkFilter', () => {
  const text = 'Hello <think>secret plan</think>world, <think>more</think>done <thin';

  it('hides reasoning however the stream is split', () => {
    for (let size = 1; size <= text.length; size++) {
      const filter = new ThinkFilter();
      let out = '';
      for (let i = 0; i < text.length; i += size) out += filter.push(text.slice(i, i + size));
      out += filter.flush();
      expect(out, `chunks of ${size}`).toBe('Hello world, done <thin');
    }
  });

  it('drops unfinished reasoning at the end', () => {
    const filter = new ThinkFilter();
    expect(filter.push('a<think>b') + filter.flush()).toBe('a');
  });
});
