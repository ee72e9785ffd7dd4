// Bundles the server and the CLI into dist/server with esbuild (dependencies stay in
// node_modules). Fast to start: one file to load instead of hundreds of modules.
import { build } from 'esbuild';

await build({
  // pdf-worker: the thread that draws a PDF and ends (src/server/integrations/pdf/apart.ts).
  entryPoints: { main: 'src/server/main.ts', cli: 'src/server/cli.ts', 'pdf-worker': 'src/server/integrations/pdf/pdf-worker.ts' },
  outdir: 'dist/server',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
