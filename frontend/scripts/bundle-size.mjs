#!/usr/bin/env node
// Prints every emitted chunk of `vite build` (frontend/dist) with its raw and gzip size, largest first,
// and which files index.html loads at start. Run after `npm run build -w frontend`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../dist', import.meta.url));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

let files;
try {
  files = walk(dist).filter((f) => /\.(js|css|html)$/.test(f));
} catch {
  console.error(`No build in ${dist}: run "npm run build -w frontend" first.`);
  process.exit(1);
}

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set([...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]));

const kb = (n) => `${(n / 1024).toFixed(1)} kB`.padStart(10);
const rows = files
  .map((f) => {
    const buf = readFileSync(f);
    const name = relative(dist, f);
    return { name, raw: buf.length, gzip: gzipSync(buf, { level: 9 }).length, initial: initial.has(name) || name === 'index.html' };
  })
  .sort((a, b) => b.raw - a.raw);

console.log(`${'file'.padEnd(44)}${'raw'.padStart(10)}${'gzip'.padStart(10)}  loaded`);
for (const r of rows) console.log(`${r.name.padEnd(44)}${kb(r.raw)}${kb(r.gzip)}  ${r.initial ? 'at start' : 'on demand'}`);
const first = rows.filter((r) => r.initial);
const sum = (key) => first.reduce((n, r) => n + r[key], 0);
console.log(`\nfirst load (index.html + its scripts and styles): ${kb(sum('raw')).trim()} raw, ${kb(sum('gzip')).trim()} gzip`);
