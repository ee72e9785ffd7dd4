// Runs `npm run build` when dist/ is missing or older than the sources, so that
// `npm start` works on a fresh clone and does not rebuild when nothing changed.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'drizzle', 'index.html', 'vite.config.ts', 'package.json', 'package-lock.json', 'scripts'];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const sources = Math.max(...INPUTS.map(newest));
if (built < sources) {
  console.log(built ? 'Sorgenti modificati: ricompilo BiciElis…' : 'Prima compilazione di BiciElis…');
  execSync('npm run build', { stdio: 'inherit' });
}
