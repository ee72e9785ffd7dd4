// Writes a brotli (.br) and a gzip (.gz) copy next to every compressible file of the built
// web app, at the highest levels: they are made once here and served by @fastify/static
// (`preCompressed`) with the right Content-Encoding, so no request pays for compressing them.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;
/** Smaller files go out as they are: the headers would weigh more than the saving. */
const MIN_BYTES = 1024;

const root = path.resolve(process.argv[2] ?? 'dist/web');

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let count = 0;
for await (const file of files(root)) {
  if ((await stat(file)).size < MIN_BYTES) continue;
  const data = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
    gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  // A copy that would not be smaller is not written: the file itself is served then.
  if (br.length < data.length) await writeFile(`${file}.br`, br);
  if (gz.length < data.length) await writeFile(`${file}.gz`, gz);
  count++;
}
console.log(`precompress: ${count} files of ${path.relative(process.cwd(), root) || '.'} in brotli and gzip`);
