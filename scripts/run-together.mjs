// Runs npm scripts side by side and fails if any fails: `npm test`'s checks that need no
// database (the typecheck, the lint, the build and its budget) share the two cores instead of
// waiting for each other (tsc and ESLint are each one thread: one after the other they left a
// core idle for ~3 minutes of CI). Each script's output is printed whole when it ends, so the
// log reads as if they had run in turn.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-together.mjs <npm script> [<npm script> ...]');
  process.exit(2);
}

const children = new Set();
const stop = (signal) => {
  for (const child of children) child.kill(signal);
  process.exit(1);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

const started = Date.now();
const run = (script) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' } });
    children.add(child);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      children.delete(child);
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(Buffer.concat(output));
      const ok = code === 0;
      console.log(`run-together: ${script} ${ok ? 'passed' : `failed (${signal ?? `exit ${code}`})`} after ${seconds} s\n`);
      resolve(ok);
    });
  });

const results = await Promise.all(scripts.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
