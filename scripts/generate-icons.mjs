// Draws the app icons (a white bicycle on the brand green) into src/web/public.
// Run once after changing the design: `node scripts/generate-icons.mjs`. The PNGs are
// committed, so building the app does not need a browser.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'src', 'web', 'public');
const BRAND = '#15803d';

// lucide "bike" (ISC licence), drawn on a 24×24 grid.
const BIKE = `
  <circle cx="18.5" cy="17.5" r="3.5"/><circle cx="5.5" cy="17.5" r="3.5"/>
  <circle cx="15" cy="5" r="1"/><path d="M12 17.5V14l-3-3 4-3 2 3h2"/>`;

/** `glyph` is the share of the side the bicycle takes; `radius` rounds the corners (0 = full bleed). */
function iconSvg({ size, glyph, radius }) {
  const scale = (size * glyph) / 24;
  const offset = (size - 24 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" rx="${size * radius}" fill="${BRAND}"/>
  <g transform="translate(${offset} ${offset + scale * 0.25}) scale(${scale})" fill="none" stroke="#fff"
     stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${BIKE}</g>
</svg>`;
}

const ICONS = [
  { file: 'pwa-192x192.png', size: 192, glyph: 0.66, radius: 0.22 },
  { file: 'pwa-512x512.png', size: 512, glyph: 0.66, radius: 0.22 },
  // Maskable: full bleed, the bicycle inside the central safe circle (80 % of the side).
  { file: 'maskable-icon-512x512.png', size: 512, glyph: 0.5, radius: 0 },
  { file: 'apple-touch-icon-180x180.png', size: 180, glyph: 0.62, radius: 0 },
  { file: 'favicon-32x32.png', size: 32, glyph: 0.78, radius: 0.2 },
];

function browserPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  return undefined;
}

await writeFile(path.join(out, 'favicon.svg'), `${iconSvg({ size: 64, glyph: 0.78, radius: 0.2 })}\n`);

const browser = await chromium.launch({ executablePath: browserPath(), args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const icon of ICONS) {
    await page.setViewportSize({ width: icon.size, height: icon.size });
    await page.setContent(
      `<style>html,body{margin:0;background:transparent}svg{display:block}</style>${iconSvg(icon)}`,
    );
    await page.screenshot({
      path: path.join(out, icon.file),
      omitBackground: true,
      clip: { x: 0, y: 0, width: icon.size, height: icon.size },
    });
    console.log(`scritto ${icon.file}`);
  }
} finally {
  await browser.close();
}
