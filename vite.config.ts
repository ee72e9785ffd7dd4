import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const BRAND_GREEN = '#15803d';

export default defineConfig({
  root: path.join(repoRoot, 'src', 'web'),
  publicDir: path.join(repoRoot, 'src', 'web', 'public'),
  build: {
    outDir: path.join(repoRoot, 'dist', 'web'),
    emptyOutDir: true,
  },
  plugins: [
    react(),
    tailwindcss(),
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
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
        navigateFallback: 'index.html',
        navigateFallbackDenylist: [/^\/api\//],
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
