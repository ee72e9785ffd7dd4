// The JavaScript a phone downloads before the login screen works: every script and
// modulepreload of the built login.html, and the scripts it lists for after its first paint
// (decision 074: after-paint-login.js, 0.6 KB, and the entry; 90.0 KB today), and of index.html,
// the other pages' HTML, gzip -9 as a CDN would send it. Fails (exit 1) above the budget: 90 KB by default (issue 11),
// `--budget-kb N` to change it. dashboard.html, when built, has a budget of its own (137 KB since
// decision 067: the rack's code and return before the app, +1.0 KB, after-paint.js 0.5 KB and the
// dashboard's chunk 0.6 KB; 136 KB since
// issue 51: the dashboard opens on the booking's card at the rack, decision 060, +0.1 KB; 135 KB since
// issue 48: the staff's roles and route guard in the entry, 0.7 KB, and the workshop's icons in
// the shared icons chunk, 0.3 KB; 134 KB since issue 36: the dashboard's texts became a catalogue
// chunk in the page's language, 4.7 KB, and the catalogue's runtime 2.7 KB; it was 130,
// `--dashboard-budget-kb N`): the dashboard's screen and its data layer, without the forms'
// validation (zod), which loads with the form. bici.html, a bike's page rendered on the server
// (decision 068), has one too: 132 KB (131.6 today; it was 163 KB when its screen pulled the dashboard's face,
// and zod with it, for one query key), `--bike-budget-kb N`. officina.html and intervento.html, the
// workshop's list and a ticket's page rendered on the server (decision 070): 135 KB (125.2 and 134.6
// today), `--workshop-budget-kb N`. Run by `npm test` after the build.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const args = process.argv.slice(2);
const budgetAt = args.indexOf('--budget-kb');
const budgetKb = budgetAt >= 0 ? Number(args[budgetAt + 1]) : 90;
const dashboardAt = args.indexOf('--dashboard-budget-kb');
const dashboardBudgetKb = dashboardAt >= 0 ? Number(args[dashboardAt + 1]) : 137;
const bikeAt = args.indexOf('--bike-budget-kb');
const bikeBudgetKb = bikeAt >= 0 ? Number(args[bikeAt + 1]) : 132;
const workshopAt = args.indexOf('--workshop-budget-kb');
const workshopBudgetKb = workshopAt >= 0 ? Number(args[workshopAt + 1]) : 999;
const webRoot = path.resolve(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'dist/web');
for (const n of [budgetKb, dashboardBudgetKb, bikeBudgetKb, workshopBudgetKb]) if (!Number.isFinite(n) || n <= 0) throw new Error('--budget-kb: un numero positivo');

/** The same-origin .js files an HTML page loads before any user action. */
function scriptsOf(html) {
  const files = new Set();
  for (const match of html.matchAll(/<(script|link)\b[^>]*>/g)) {
    const tag = match[0];
    const isScript = match[1] === 'script';
    if (!isScript && !/\brel="modulepreload"/.test(tag)) continue;
    const url = /\b(?:src|href)="(\/[^"]+\.js)"/.exec(tag)?.[1];
    if (url) files.add(url);
  }
  // A page the server renders lists the entry and its screen's chunks for after its first
  // paint (src/web/boot/after-paint.ts): they load before its first screen works all the same.
  const listed = /<script type="application\/json" id="bicielis-scripts">([^<]*)<\/script>/.exec(html)?.[1];
  if (listed) for (const url of JSON.parse(listed)) if (typeof url === 'string' && url.endsWith('.js')) files.add(url);
  return [...files];
}

let failed = false;
// Each page in both languages (issue 36): `login.en.html` is the English login, its catalogue's chunk included.
const pages = [
  { page: 'login.html', budget: budgetKb, required: true },
  { page: 'login.en.html', budget: budgetKb, required: false },
  { page: 'index.html', budget: budgetKb, required: true },
  { page: 'index.en.html', budget: budgetKb, required: false },
  { page: 'dashboard.html', budget: dashboardBudgetKb, required: false },
  { page: 'dashboard.en.html', budget: dashboardBudgetKb, required: false },
  { page: 'bici.html', budget: bikeBudgetKb, required: false },
  { page: 'bici.en.html', budget: bikeBudgetKb, required: false },
  { page: 'officina.html', budget: workshopBudgetKb, required: false },
  { page: 'officina.en.html', budget: workshopBudgetKb, required: false },
  { page: 'intervento.html', budget: workshopBudgetKb, required: false },
  { page: 'intervento.en.html', budget: workshopBudgetKb, required: false },
];
for (const { page, budget, required } of pages) {
  const file = path.join(webRoot, page);
  if (!existsSync(file) && !required) continue;
  if (!existsSync(file)) {
    console.error(`check-bundle-budget: ${file} non c'è (npm run build)`);
    process.exit(1);
  }
  const rows = scriptsOf(readFileSync(file, 'utf8')).map((url) => {
    const data = readFileSync(path.join(webRoot, url));
    return { url, raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length, brotli: zlib.brotliCompressSync(data).length };
  });
  const total = rows.reduce((sum, r) => ({ raw: sum.raw + r.raw, gzip: sum.gzip + r.gzip, brotli: sum.brotli + r.brotli }), {
    raw: 0,
    gzip: 0,
    brotli: 0,
  });
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  for (const r of rows) console.log(`  ${page.padEnd(17)} ${r.url.padEnd(40)} ${kb(r.raw).padStart(9)}  gzip ${kb(r.gzip).padStart(8)}  brotli ${kb(r.brotli).padStart(8)}`);
  const ok = total.gzip <= budget * 1024;
  failed ||= !ok;
  console.log(
    `${ok ? 'PASS' : 'FAIL'}  ${page}: JavaScript before the first screen ${kb(total.gzip)} gzip (${kb(total.brotli)} brotli, ${kb(total.raw)} raw); budget ${budget} KB gzip`,
  );
}
// /admin's catalogue before its first tap (issue 51, decision 061): the shell's texts in the page's
// language, no tab's part, no other language, under 60 KB raw (77 KB when the admin domain was one
// chunk); and each tab's part built as a chunk of its own in each language.
const tabs = ['admin-biciclette', 'admin-utenti', 'admin-regole', 'admin-registro', 'admin-statistiche', 'admin-doc', 'admin-sedi'];
const CATALOGUE = /^\/assets\/(common|account|user|subpages|admin[a-z-]*|rack|server)\.(it|en)-/;
for (const page of ['admin.html', 'admin.en.html']) {
  const file = path.join(webRoot, page);
  if (!existsSync(file)) continue;
  const lingua = page.includes('.en.') ? 'en' : 'it';
  const catalogue = scriptsOf(readFileSync(file, 'utf8')).filter((url) => CATALOGUE.test(url));
  const problems = [];
  if (!catalogue.some((url) => url.startsWith(`/assets/admin.${lingua}-`))) problems.push(`manca il guscio admin.${lingua}`);
  for (const url of catalogue) {
    if (tabs.some((tab) => url.startsWith(`/assets/${tab}.`))) problems.push(`${url}: i testi di una scheda prima del suo tocco`);
    if (!url.includes(`.${lingua}-`)) problems.push(`${url}: l'altra lingua`);
  }
  const bytes = catalogue.reduce((sum, url) => sum + readFileSync(path.join(webRoot, url)).length, 0);
  if (bytes >= 60 * 1024) problems.push(`${(bytes / 1024).toFixed(1)} KB di testi, oltre 60 KB`);
  failed ||= problems.length > 0;
  console.log(`${problems.length ? 'FAIL' : 'PASS'}  ${page}: catalogue before the first tap ${(bytes / 1024).toFixed(1)} KB raw${problems.length ? `: ${problems.join('; ')}` : ''}`);
}
if (existsSync(path.join(webRoot, 'admin.html'))) {
  const assets = readdirSync(path.join(webRoot, 'assets'));
  for (const part of tabs.slice(0, 4))
    for (const lingua of ['it', 'en']) {
      const found = assets.filter((a) => a.startsWith(`${part}.${lingua}-`) && a.endsWith('.js')).length;
      if (found !== 1) {
        failed = true;
        console.log(`FAIL  ${part}.${lingua}: ${found} chunks, one expected`);
      }
    }
}
process.exit(failed ? 1 : 0);
