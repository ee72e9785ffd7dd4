import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const BRAND_GREEN = '#15803d';
/** The pages whose first screen is pre-rendered: file written, address rendered, screen (routes.tsx `firstScreen`). */
const PRERENDERED = [
  { file: 'index.html', path: '/', screen: 'loading' },
  { file: 'login.html', path: '/login', screen: 'login' },
] as const;
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Puts the app's first screen into the built HTML (src/web/prerender.tsx, rendered through a
 * throw-away Vite server): index.html gets the loading state, login.html the login form.
 * The server sends login.html at /login and index.html elsewhere (src/server/app.ts).
 * docs/decisions/019-first-paint.md.
 */
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
        plugins: [react()],
      });
      try {
        const { render } = (await server.ssrLoadModule('/prerender.tsx')) as { render: (path: string) => string };
        for (const page of PRERENDERED) {
          const html = template.replace(
            ROOT_ELEMENT,
            `<div id="root" data-prerendered="${page.screen}">${render(page.path)}</div>`,
          );
          if (page.file === 'index.html') index.source = html;
          else this.emitFile({ type: 'asset', fileName: page.file, source: html });
        }
      } finally {
        await server.close();
      }
    },
  };
}

const PAYMENT_MODULES = /src[\\/](web[\\/]features[\\/]payment[\\/](?!stripe-payment)|shared[\\/]schemas[\\/]payment)/;

export default defineConfig({
  root: path.join(repoRoot, 'src', 'web'),
  publicDir: path.join(repoRoot, 'src', 'web', 'public'),
  build: {
    outDir: path.join(repoRoot, 'dist', 'web'),
    emptyOutDir: true,
    // Chunks ("Fast by construction"): everything the first page needs in one file (the
    // entry), the payment screens in one chunk (Stripe Elements in another, see
    // features/payment/stripe-payment.tsx), what the dashboard and the payment screens
    // share in a small common chunk, the dashboard in its own.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 3 },
            { name: 'common', minShareCount: 2, priority: 2, test: (id) => !PAYMENT_MODULES.test(id) },
            { name: 'payment', test: PAYMENT_MODULES, priority: 1 },
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
      registerType: 'autoUpdate',
      // A separate registerSW.js file (not inline): the CSP allows only same-origin scripts.
      injectRegister: 'script',
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
      workbox: {
        // Only the built app shell is precached. The API is never cached: no runtime
        // caching at all, and navigations under /api/ never get the cached index.html.
        // Nor do those under /payment/: that page needs the server's own answer, whose
        // Content-Security-Policy is the only one that lets Stripe.js in.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        // Stripe Elements is needed only with Stripe configured, online: no phone downloads it ahead.
        globIgnores: ['**/stripe-payment-*.js'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/payment\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  server: {
    // `npm run dev` (vite) next to `npm run dev:server` (the API on port 3000). The Host
    // header is kept, so the server's same-origin check accepts the dev page's requests.
    proxy: { '/api': { target: 'http://localhost:3000' } },
  },
});
