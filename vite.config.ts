import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { createServer, defineConfig, minify, transformWithOxc, type Plugin, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { CLASS_LISTS_ELEMENT_ID, PAGE_BAR_END_ID } from './src/shared/server-page';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const BRAND_GREEN = '#15803d';
/** What a page the server rendered for its user hydrates its query cache with (decision 027). */
const SERVER_QUERIES = 'boot/server-queries.ts';
/**
 * The pages whose first screen is pre-rendered: the file written, the address rendered, the
 * screen that shows (lib/guards.ts `firstScreen`) and the lazily loaded modules whose chunks the
 * page preloads, so they download alongside the entry rather than after it. The server
 * maps addresses to these files (src/shared/pages.ts); for a logged-in user it renders
 * /dashboard, /admin and /bici/{numero} itself into these same files (src/server/pages/server-render.ts).
 */
const PRERENDERED: {
  file: string;
  path: string;
  screen: 'login' | 'loading' | 'privacy';
  preload: string[];
  /** The catalogue's domains the page's first screen reads, besides `common` (issue 36: their chunks load with the entry). */
  texts: string[];
  serverRendered?: true;
  /** The app's code after the first paint (after-paint-login.js), without the early controls of the pages the server renders. */
  afterPaint?: true;
}[] = [
  { file: 'index.html', path: '/', screen: 'loading', preload: [], texts: [] },
  // Its form is the page (decision 074): the app's code is asked for after the first paint, as on the pages the server renders.
  { file: 'login.html', path: '/login', screen: 'login', preload: [], texts: [], afterPaint: true },
  // The privacy notice (issue 23): its text pre-rendered; the server fills in the controller (pages/privacy-page.ts).
  { file: 'privacy.html', path: '/privacy', screen: 'privacy', preload: ['features/privacy/privacy-page.tsx'], texts: ['account'] },
  { file: 'dashboard.html', path: '/dashboard', screen: 'loading', preload: ['features/dashboard/dashboard-page.tsx', 'components/query-provider.tsx', SERVER_QUERIES], texts: ['user'], serverRendered: true },
  { file: 'admin.html', path: '/admin', screen: 'loading', preload: ['features/admin/admin-page.tsx', 'components/query-provider.tsx', SERVER_QUERIES], texts: ['user', 'admin', 'admin-officina'], serverRendered: true },
  // A bike's page, whatever its number (decision 068): shared/pages.ts sends every `/bici/{numero}` here.
  { file: 'bici.html', path: '/bici/0', screen: 'loading', preload: ['features/bike/bike-page.tsx', 'components/query-provider.tsx', SERVER_QUERIES], texts: ['user', 'subpages'], serverRendered: true },
  // The workshop's screen and a ticket's page (decision 070): shared/pages.ts sends every `/officina/{id}` to intervento.html.
  { file: 'officina.html', path: '/officina', screen: 'loading', preload: ['features/officina/officina-page.tsx', 'components/query-provider.tsx', SERVER_QUERIES], texts: ['user', 'admin-officina'], serverRendered: true },
  {
    file: 'intervento.html',
    path: '/officina/0',
    screen: 'loading',
    preload: ['features/officina/ticket-page.tsx', 'components/query-provider.tsx', SERVER_QUERIES],
    texts: ['user', 'subpages', 'admin-officina'],
    serverRendered: true,
  },
];
/**
 * Each page is written once per language (issue 36): `login.html` in Italian, `login.en.html` in
 * English, `<html lang>` set; the server sends the reader's (src/server/pages/pages.ts `inLinguaFile`).
 */
const LINGUE = ['it', 'en'] as const;
/** index.html's description, in each language. */
const DESCRIPTION = {
  it: 'content="BiciElis: prenotazione delle biciclette del collegio"',
  en: 'content="BiciElis: booking the college\'s bikes"',
} as const;
const inLinguaFile = (file: string, lingua: (typeof LINGUE)[number]) => (lingua === 'it' ? file : file.replace(/\.html$/, `.${lingua}.html`));
/**
 * The pages the server renders for a user (/dashboard, /admin) paint once their header has
 * been parsed whole (the marker after its bar, shared/server-page.ts `PAGE_BAR_END_ID`), not as the
 * parser goes: on a busy phone the parser yielded midway through it, and a first paint of half
 * a header then moved when its buttons arrived (a layout shift; the adoption e2e test caught
 * two). Only the header, not the whole screen: waiting for all of #root delayed the first
 * paint on a slow network by ~200 ms (docs/performance.md). Chromium's `rel=expect`; other
 * browsers ignore it. The loading page, which has no header, paints once that small page is
 * parsed.
 */
const PAINT_WHOLE_HEADER = `<link rel="expect" href="#${PAGE_BAR_END_ID}" blocking="render">`;
/** Every page needs the session first: its request leaves with the HTML, not after the entry has run (lib/session.ts). */
const SESSION_PRELOAD = '<link rel="preload" href="/api/current-user" as="fetch" crossorigin="use-credentials">';
const ROOT_ELEMENT = '<div id="root"></div>';
/** The page's entry script, as Vite writes it into index.html. */
const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"><\/script>/;
/**
 * The pages the server renders for a user ask for the app's code after their first paint
 * (src/web/boot/after-paint.ts): their one script is that small module, and the entry with the
 * screen's chunks is listed here for it, as data (never executed; the CSP allows no inline
 * script). docs/performance.md, "fourth session".
 */
const SCRIPTS_ELEMENT_ID = 'bicielis-scripts';

/**
 * The pages' after-paint.js as they load it: src/web/boot's `files` in turn (each has no imports
 * but types), TypeScript removed, in one minified module. The pages the server renders get
 * early-controls.ts then after-paint.ts; the login only after-paint.ts (decision 074).
 */
async function afterPaintScript(files: string[]): Promise<string> {
  const parts = await Promise.all(
    files.map(async (name) => {
      const file = path.join(repoRoot, 'src', 'web', 'boot', name);
      const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file, { lang: 'ts' });
      // `export {}` only makes a file a module for TypeScript.
      return code.replace(/^export \{\};?$/gmu, '');
    }),
  );
  const minified = await minify('after-paint.js', parts.join('\n'), { compress: true, mangle: { toplevel: true } });
  if (minified.errors.length > 0) throw new Error(`after-paint: ${minified.errors.map((e) => e.message).join('; ')}`);
  return minified.code;
}

/**
 * A server-rendered page's scripts: instead of the entry's `<script>` and the chunks'
 * modulepreloads, after-paint.js and the list it reads.
 */
function scriptsAfterPaint(html: string, chunks: string[], afterPaintFile: string): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) throw new Error('prerender: script di ingresso non trovato in index.html');
  const list = JSON.stringify([entry, ...chunks.map((file) => `/${file}`)]);
  return html
    .replace(ENTRY_SCRIPT, `<script type="module" crossorigin src="/${afterPaintFile}"></script>`)
    .replace('</head>', `<script type="application/json" id="${SCRIPTS_ELEMENT_ID}">${list}</script></head>`);
}

/**
 * Puts the app's first screen into the built HTML (src/web/boot/prerender.tsx, rendered through a
 * throw-away Vite server): login.html the login form, the others the loading state.
 * docs/decisions/019-first-paint.md.
 */
/** The files of the chunk holding `moduleSuffix` (under src/) and of every chunk it imports, the entry excepted. */
function chunkFiles(bundle: Rolldown.OutputBundle, moduleSuffix: string): string[] {
  const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
  const start = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(`/src/${moduleSuffix.startsWith('shared/') ? '' : 'web/'}${moduleSuffix}`));
  if (!start) throw new Error(`prerender: nessun chunk per ${moduleSuffix}`);
  const files = new Set<string>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (chunk.isEntry || files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const name of chunk.imports) {
      const next = bundle[name];
      if (next?.type === 'chunk') visit(next);
    }
  };
  visit(start);
  return [...files];
}

/**
 * The app's one stylesheet (8 KB gzip) put in the page itself: the first paint needs it, and
 * as a file it was a second round trip before anything showed, competing with the scripts.
 * The CSP allows inline styles ('unsafe-inline' in style-src). A `disabled` link to the file
 * stays: Vite's loader of lazy chunks, which lists the entry's stylesheet among their
 * dependencies, finds it there and does not load it again; browsers fetch no disabled
 * stylesheet. The file itself is still emitted, for any other reader.
 */
function inlineStylesheet(html: string, bundle: Rolldown.OutputBundle): string {
  return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
    const css = bundle[file];
    if (css?.type !== 'asset') return tag;
    const inline = String(css.source).replaceAll('</style', '<\\/style');
    return `<style>${inline}</style><link rel="stylesheet" href="/${file}" disabled>`;
  });
}

function prerenderPlugin(): Plugin {
  return {
    name: 'bicielis-prerender',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset' || typeof index.source !== 'string') this.error('index.html mancante nel build');
      const template = index.source as string;
      if (!template.includes(ROOT_ELEMENT)) this.error(`index.html senza ${ROOT_ELEMENT}`);
      const server = await createServer({
        configFile: false,
        root: path.join(repoRoot, 'src', 'web'),
        logLevel: 'error',
        appType: 'custom',
        server: { middlewareMode: true, hmr: false, ws: false },
        // Only ssrLoadModule is used: no scan of the browser's dependencies (which would not
        // resolve the PWA plugin's virtual modules, not loaded here).
        optimizeDeps: { noDiscovery: true },
        plugins: [react()],
      });
      try {
        type ClassLists = { same: string[]; changed: [string, string][] };
        const { render } = (await server.ssrLoadModule('/boot/prerender.tsx')) as {
          render: (path: string, lingua: (typeof LINGUE)[number]) => Promise<{ html: string; classLists: ClassLists }>;
        };
        const afterPaintFile = this.getFileName(this.emitFile({ type: 'asset', name: 'after-paint.js', source: await afterPaintScript(['early-controls.ts', 'after-paint.ts']) }));
        // The login's: the app after the first paint, none of the rendered pages' early controls (decision 074).
        const loginAfterPaintFile = this.getFileName(this.emitFile({ type: 'asset', name: 'after-paint-login.js', source: await afterPaintScript(['after-paint.ts']) }));
        const rendered = new Map<string, string>();
        const same = new Set<string>();
        const changed = new Map<string, string>();
        for (const page of PRERENDERED) {
          for (const lingua of LINGUE) {
            const { html, classLists } = await render(page.path, lingua);
            rendered.set(inLinguaFile(page.file, lingua), html);
            for (const list of classLists.same) same.add(list);
            for (const [list, result] of classLists.changed) changed.set(list, result);
          }
        }
        // Every pre-rendered screen's class lists, in each page: a page hydrates its own screen,
        // and index.html's loading state gives way to the login or the privacy notice without
        // tailwind-merge (lib/utils.ts, decision 048). JSON with no `<` in it: safe in a script.
        const classLists = JSON.stringify({ same: [...same].sort(), changed: [...changed].sort() }).replaceAll('<', '\\u003c');
        const classScript = `<script type="application/json" id="${CLASS_LISTS_ELEMENT_ID}">${classLists}</script>`;
        for (const page of PRERENDERED) {
          for (const lingua of LINGUE) {
            const file = inLinguaFile(page.file, lingua);
            // The page's texts in its language: the chunks of its catalogue's domains, with the entry.
            const texts = ['common', ...page.texts].flatMap((domain) => chunkFiles(bundle, `shared/i18n/compiled/${domain}.${lingua}.ts`));
            const chunks = [...new Set([...page.preload.flatMap((m) => chunkFiles(bundle, m)), ...texts])];
            const preloads = page.serverRendered || page.afterPaint ? [] : chunks.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
            const withStyle = inlineStylesheet(template, bundle)
              .replace('<html lang="it">', `<html lang="${lingua}">`)
              .replace(DESCRIPTION.it, DESCRIPTION[lingua]);
            const html = (page.serverRendered ? scriptsAfterPaint(withStyle, chunks, afterPaintFile) : page.afterPaint ? scriptsAfterPaint(withStyle, chunks, loginAfterPaintFile) : withStyle)
              .replace('</head>', `${[...(page.serverRendered ? [PAINT_WHOLE_HEADER] : []), SESSION_PRELOAD, ...preloads].join('')}</head>`)
              .replace(ROOT_ELEMENT, `<div id="root" data-prerendered="${page.screen}">${rendered.get(file)!}</div>${classScript}`);
            if (file === 'index.html') index.source = html;
            else this.emitFile({ type: 'asset', fileName: file, source: html });
          }
        }
      } finally {
        await server.close();
      }
    },
  };
}

/** Radix and what it is built on: the dialogs, menus and toasts of every screen but the first. */
const UI_MODULES =
  /node_modules[\\/](radix-ui|@radix-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|@floating-ui|tslib|detect-node-es)[\\/]/;
const SCHEMA_MODULES = /node_modules[\\/]zod[\\/]|src[\\/]shared[\\/](zod-it\.ts|schemas[\\/])/;

/**
 * `vite build --ssr` (npm run build, after the browser's build): the server's renderer of
 * /dashboard and /admin for a logged-in user (src/web/boot/entry-server.tsx, decision 027) in
 * dist/ssr/entry-server.js, everything it imports bundled in (React and react-dom/server
 * included), so the server loads one file at start. No pre-rendering, no service worker.
 */
const ssrConfig = defineConfig({
  root: path.join(repoRoot, 'src', 'web'),
  publicDir: false,
  plugins: [react()],
  // React's production builds only (the development ones are dropped from the bundle).
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  ssr: { noExternal: true },
  build: {
    ssr: true,
    outDir: path.join(repoRoot, 'dist', 'ssr'),
    emptyOutDir: true,
    copyPublicDir: false,
    target: 'node20',
    sourcemap: true,
    rolldownOptions: {
      input: { 'entry-server': path.join(repoRoot, 'src', 'web', 'boot', 'entry-server.tsx') },
      // The entry imports the screens' modules itself (to render them at once): that their
      // dynamic imports in screens.tsx then split nothing off is intended here.
      onLog(level, log, handler) {
        if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
      },
    },
  },
});

const webConfig = defineConfig({
  root: path.join(repoRoot, 'src', 'web'),
  publicDir: path.join(repoRoot, 'src', 'web', 'public'),
  build: {
    outDir: path.join(repoRoot, 'dist', 'web'),
    emptyOutDir: true,
    // Chunks ("Fast by construction", decision 019): everything the first screen needs in one
    // file (the entry: React, the router, the login screen); libraries that only some screens
    // use in chunks of their own, so a screen downloads what it uses — zod with the shared
    // schemas (the login form's validation loads just that), TanStack Query, the form library,
    // Radix (the toaster loads just that); each screen group its own chunk (React.lazy,
    // screens.tsx; Stripe Elements apart, see features/payment/stripe-payment.tsx); the app
    // code several screens share in a common chunk.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 10 },
            // Before the schemas: a group takes the modules its members import too, and the
            // schemas import shared/time.ts (date-fns), which the dashboard needs without zod.
            // The audit log's labels stay with the one tab that shows them (issue 23).
            { name: 'shared', test: /src[\\/]shared[\\/](?!schemas[\\/]|zod-it\.ts|audit-actions\.ts|i18n[\\/]compiled[\\/])/, priority: 7 },
            { name: 'schemas', test: SCHEMA_MODULES, priority: 6 },
            // TanStack Query itself; its persisters and the (de)hydration they use load with the
            // offline machinery (issue 22).
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/](?!build[\\/]modern[\\/]hydration\.js)/, priority: 6 },
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/, priority: 6 },
            { name: 'ui', test: UI_MODULES, priority: 5 },
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 5 },
          ],
        },
      },
    },
  },
  plugins: [
    react(),
    tailwindcss(),
    prerenderPlugin(),
    VitePWA({
      // Our own service worker (src/web/sw.ts, issue 22): the app shell precached, the
      // navigations, the offline queue's Background Sync, web push. A classic script (iife), so
      // that it can importScripts push-sw.js.
      strategies: 'injectManifest',
      srcDir: '.',
      filename: 'sw.ts',
      // A new version is announced (`Nuova versione disponibile` → `Aggiorna`) and applied
      // only then: pwa/service-worker.tsx registers the worker after the page has loaded.
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'BiciElis',
        short_name: 'BiciElis',
        description: 'Prenotazione delle biciclette del collegio',
        lang: 'it',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: BRAND_GREEN,
        background_color: '#ffffff',
        icons: [
          { src: 'pwa-192x192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'pwa-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'maskable-icon-512x512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        rollupFormat: 'iife',
        // Only the built app shell is precached. The API is never cached (sw.ts).
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Stripe Elements is needed only with Stripe configured, online: no phone downloads it ahead.
        globIgnores: ['**/stripe-payment-*.js'],
      },
    }),
  ],
  server: {
    // `npm run dev` (vite) next to `npm run dev:server` (the API on port 3000). The Host
    // header is kept, so the server's same-origin check accepts the dev page's requests.
    proxy: { '/api': { target: 'http://localhost:3000' } },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrConfig : webConfig));
