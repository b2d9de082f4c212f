import fs from 'node:fs';
import { SHARED_DATA } from '@aigis/test-support/env';

/** Fails fast with a clear message when the shared data is missing (it lives beside the repository). */
export default function setup(): void {
  if (!fs.existsSync(SHARED_DATA)) {
    throw new Error(`Test data not found at ${SHARED_DATA}: clone the repository next to ../shared or set SHARED_DATA`);
  }
}
