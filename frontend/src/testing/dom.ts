// What the jsdom unit tests share: render into the document through React's act(), find by data-testid, type into
// a controlled field. Importing it registers the cleanup, so each test starts from an empty document.
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const containers: HTMLElement[] = [];
afterEach(() => {
  containers.splice(0).forEach((c) => c.remove());
});

/** Renders `node` into a fresh element of the document, and waits for its effects. */
export async function render(node: ReactNode): Promise<HTMLElement> {
  const el = document.createElement('div');
  document.body.append(el);
  containers.push(el);
  await act(async () => createRoot(el).render(node));
  return el;
}

export const byTestId = (root: HTMLElement, id: string) => root.querySelector(`[data-testid="${id}"]`) as HTMLElement;
export const allByTestId = (root: HTMLElement, id: string) => [...root.querySelectorAll(`[data-testid="${id}"]`)] as HTMLElement[];

/** Sets a controlled field's value the way React notices (through the native setter, then an input event); call it inside act(). */
export function type(el: HTMLTextAreaElement | HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')!.set!;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}
