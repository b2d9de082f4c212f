/**
 * Hides <think>…</think> reasoning from streamed text, even when a tag is split across chunks:
 * reasoning models (qwen3, gpt-oss via some servers) emit it inline, and it is not the answer.
 */
export class ThinkFilter {
  private inside = false;
  private pending = '';

  push(text: string): string {
    let input = this.pending + text;
    this.pending = '';
    let out = '';
    while (input.length > 0) {
      const tag = this.inside ? '</think>' : '<think>';
      const at = input.toLowerCase().indexOf(tag);
      if (at !== -1) {
        if (!this.inside) out += input.slice(0, at);
        input = input.slice(at + tag.length);
        this.inside = !this.inside;
        continue;
      }
      // Keep a possible partial tag at the end for the next chunk.
      const keep = partialSuffix(input.toLowerCase(), tag);
      if (!this.inside) out += input.slice(0, input.length - keep);
      this.pending = input.slice(input.length - keep);
      break;
    }
    return out;
  }

  flush(): string {
    const rest = this.inside ? '' : this.pending;
    this.pending = '';
    return rest;
  }
}

function partialSuffix(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) {
    if (tag.startsWith(text.slice(text.length - n))) return n;
  }
  return 0;
}
