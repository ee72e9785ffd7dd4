import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { validate, compileErrors } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX, fastifyPath, isDocumentedRoute, OPENAPI_PATH } from '../../src/server/api-docs/openapi.js';
import { operationIndex, TAGS } from '../../src/server/api-docs/catalogue.js';
import { compiledCatalogue, tFor } from '../../src/shared/i18n/all.js';
import type { MessageKey } from '../../src/shared/i18n/index.js';
import { createTestApp, type RouteEntry, type TestContext } from '../helpers/app.js';

/**
 * Decision 031: the OpenAPI document is generated from the routes the app registers and their
 * zod schemas. These tests hold it to the app (every /api route in it, nothing else), to the
 * standard (a 3.1 validator), to the error conventions of behaviour.md §4, and to a client: the
 * types openapi-typescript makes of it must compile against a call of every non-admin route.
 */

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

let ctx: TestContext & { routes: RouteEntry[] };
let doc: OpenAPIV3_1.Document;

beforeAll(async () => {
  ctx = await createTestApp();
  const res = await ctx.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(async () => {
  await ctx?.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Every operation of the document as `METHOD /api/path/:param`, with its object. */
function operations(document: OpenAPIV3_1.Document): Map<string, OpenAPIV3_1.OperationObject> {
  const out = new Map<string, OpenAPIV3_1.OperationObject>();
  for (const [p, item] of Object.entries(document.paths ?? {})) {
    for (const m of METHODS) {
      const op = item?.[m];
      if (op) out.set(`${m.toUpperCase()} ${fastifyPath(p)}`, op);
    }
  }
  return out;
}

/** The API's routes as the app registered them (Fastify's HEAD mirrors aside). */
const apiRoutes = (routes: RouteEntry[]) =>
  [...new Set(routes.filter((r) => r.method !== 'HEAD' && isDocumentedRoute(r.url)).map((r) => `${r.method} ${r.url}`))].sort();

/** Routes missing from the document, and documented operations that are no route. */
function coverage(routes: string[], documented: string[]) {
  return {
    missing: routes.filter((r) => !documented.includes(r)),
    notRoutes: documented.filter((d) => !routes.includes(d)),
  };
}

describe('the document and the app', () => {
  it('documents every registered /api route, and no operation that is not a route', () => {
    const routes = apiRoutes(ctx.routes);
    expect(routes.length).toBeGreaterThan(80);
    expect(coverage(routes, [...operations(doc).keys()])).toEqual({ missing: [], notRoutes: [] });
  });

  it('the check is not blind: a route left out, or a path that is no route, is named', () => {
    const routes = apiRoutes(ctx.routes);
    const documented = [...operations(doc).keys()];
    expect(coverage([...routes, 'PATCH /api/prenotazioni/:id'], documented)).toEqual({ missing: ['PATCH /api/prenotazioni/:id'], notRoutes: [] });
    expect(coverage(routes, [...documented, 'GET /api/fantasma'])).toEqual({ missing: [], notRoutes: ['GET /api/fantasma'] });
  });

  it('the catalogue (each module’s operations.ts) has an entry for every route and none for a route that does not exist', () => {
    const routes = apiRoutes(ctx.routes);
    const known = [...operationIndex().keys()];
    expect(routes.filter((r) => !known.includes(r)), 'routes without a summary, module and access').toEqual([]);
    expect(known.filter((k) => !routes.includes(k)), 'entries without a route').toEqual([]);
  });

  it('leaves out the pages, the static files and the docs themselves', () => {
    const paths = Object.keys(doc.paths ?? {});
    expect(paths.every((p) => p.startsWith('/api/'))).toBe(true);
    expect(paths.filter((p) => p === OPENAPI_PATH || p.startsWith(DOCS_PREFIX))).toEqual([]);
    // The docs' own routes exist (they are the ones left out on purpose).
    expect(ctx.routes.some((r) => r.url === OPENAPI_PATH)).toBe(true);
    expect(ctx.routes.some((r) => r.url.startsWith(`${DOCS_PREFIX}/`))).toBe(true);
  });
});

/** Every refusal the document lists, with its example body. */
function refusals(document: OpenAPIV3_1.Document) {
  return [...operations(document)].flatMap(([key, op]) =>
    Object.entries(op.responses ?? {})
      .filter(([status]) => Number(status) >= 400)
      .map(([status, r]) => {
        const media = (r as OpenAPIV3_1.ResponseObject).content?.['application/json'];
        return { key, status: Number(status), schema: media?.schema, example: media?.example as { message?: string; fields?: object } | undefined };
      }),
  );
}

describe('what each operation says (behaviour.md §4)', () => {
  it('a summary, one module, its security, a success answer, and the shared error shape on every refusal', () => {
    const tags = new Set<string>(Object.values(TAGS).map((t) => t.name));
    const problems: string[] = [];
    for (const [key, op] of operations(doc)) {
      if (!op.summary) problems.push(`${key}: no summary`);
      if (op.tags?.length !== 1 || !tags.has(op.tags[0]!)) problems.push(`${key}: tags ${JSON.stringify(op.tags)}`);
      if (!Array.isArray(op.security)) problems.push(`${key}: no security`);
      const statuses = Object.keys(op.responses ?? {}).map(Number);
      if (!statuses.some((s) => s >= 200 && s < 300)) problems.push(`${key}: no success answer`);
      for (const s of [500, 503]) if (!statuses.includes(s)) problems.push(`${key}: no ${s}`);
      if (op.requestBody && !statuses.includes(400)) problems.push(`${key}: a body but no 400`);
    }
    for (const r of refusals(doc)) {
      if ((r.schema as { $ref?: string } | undefined)?.$ref !== '#/components/schemas/Errore') problems.push(`${r.key} ${r.status}: not the Errore shape`);
      if (!r.example?.message) problems.push(`${r.key} ${r.status}: no Italian message`);
      if (r.status === 400 && !r.example?.fields) problems.push(`${r.key} 400: no fields`);
    }
    expect(problems).toEqual([]);
    expect(doc.components?.schemas?.Errore).toMatchObject({ type: 'object', required: ['message'] });
  });

  it('who may call: the session cookie, 401 «Non autenticato» and, for admin routes, 403', () => {
    const ops = operations(doc);
    const admin = [...ops].filter(([k]) => k.includes(' /api/admin/'));
    expect(admin.length).toBeGreaterThan(30);
    for (const [key, op] of admin) {
      expect(op.security, key).toEqual([{ sessione: [] }]);
      const responses = op.responses as Record<string, OpenAPIV3_1.ResponseObject>;
      expect(responses['401']?.content?.['application/json']?.example, key).toEqual({ message: 'Non autenticato', code: 'UNAUTHENTICATED' });
      expect(responses['403']?.description, key).toBe('Non hai i permessi per questa operazione');
    }
    expect(doc.components?.securitySchemes?.sessione).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'bicielis_session' }));
    expect(ops.get('GET /api/health')?.security).toEqual([]);
    expect(ops.get('POST /api/payments/webhook')?.security).toEqual([{ firmaWebhook: [] }]);
    expect(ops.get('GET /api/calendario/:token')?.security).toEqual([]);
    expect(Object.keys(ops.get('POST /api/login')?.responses ?? {})).toContain('429');
  });

  it('the parameters and bodies are the routes’ zod schemas', () => {
    const ops = operations(doc);
    const booking = ops.get('POST /api/prenotazioni')!.requestBody as OpenAPIV3_1.RequestBodyObject;
    expect(booking.content['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['dataPrenotazione', 'orarioInizio', 'orarioFine', 'biciId'],
      properties: { biciId: { type: 'integer', minimum: 1 }, orarioInizio: { type: 'string', pattern: expect.any(String) } },
    });
    expect(ops.get('DELETE /api/prenotazioni/:id')!.parameters).toEqual([
      expect.objectContaining({ in: 'path', name: 'id', required: true, schema: expect.objectContaining({ type: 'string', pattern: '^[1-9][0-9]{0,9}$' }) }),
    ]);
    const paging = (ops.get('GET /api/admin/users')!.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
    expect(paging.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'pageSize']));
  });

  it('every refusal it shows is a key the server throws, in its key’s Italian (no invented text)', async () => {
    const files = (await fs.readdir(path.join(ROOT, 'src'), { recursive: true }))
      .filter((f) => f.endsWith('.ts') && !f.includes('openapi') && !f.endsWith('operations.ts') && !f.includes('compiled'))
      .map((f) => path.join(ROOT, 'src', f));
    const source = (await Promise.all(files.map((f) => fs.readFile(f, 'utf8')))).join('\n');
    const keys = new Set<string>();
    for (const op of operationIndex().values()) for (const named of Object.values(op.errors ?? {})) for (const key of [named].flat()) keys.add(key);
    expect(keys.size).toBeGreaterThan(30);
    expect([...keys].filter((key) => !source.includes(`'${key}'`))).toEqual([]);
    const thrown = new Set(Object.keys(compiledCatalogue('it')).filter((key) => source.includes(`'${key}'`)).map((key) => (tFor('it') as (key: MessageKey) => string)(key as MessageKey)));
    const messages = new Set(refusals(doc).flatMap((r) => (r.status !== 429 && r.example?.message ? [r.example.message] : [])));
    expect(messages.size).toBeGreaterThan(15);
    expect([...messages].filter((m) => !thrown.has(m))).toEqual([]);
    // The check reads the catalogue through the source: a message the server never says is named.
    expect(['Questa frase non è del server'].filter((m) => !thrown.has(m))).toHaveLength(1);
  });
});

describe('the document is valid OpenAPI 3.1', () => {
  it('@readme/openapi-parser finds no error', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.specification).toBe('OpenAPI');
  });

  it('the validator is not blind: a broken document is refused', async () => {
    const broken = structuredClone(doc) as unknown as { paths: Record<string, Record<string, { responses?: unknown }>> };
    delete broken.paths['/api/health']!.get!.responses;
    broken.paths['/api/nonvalido'] = { get: { responses: { '200': { $ref: '#/components/responses/Inesistente' } } } };
    const result = await validate(broken as never);
    expect(result.valid).toBe(false);
  });
});

describe('a client generated from the document', () => {
  let dir: string;
  beforeAll(async () => {
    // Inside the project, so that `openapi-fetch` resolves from its node_modules; .tmp/ is ignored.
    await fs.mkdir(path.join(ROOT, '.tmp'), { recursive: true });
    dir = await fs.mkdtemp(path.join(ROOT, '.tmp', 'openapi-client-'));
    await fs.writeFile(path.join(dir, 'api.ts'), astToString(await openapiTS(structuredClone(doc) as never)));
    await fs.copyFile(path.join(ROOT, 'tests/api/openapi-client/calls.ts'), path.join(dir, 'calls.ts'));
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  /** tsc --noEmit on one file beside the generated types: its exit code and what it printed. */
  async function typecheck(file: string): Promise<{ code: number; output: string }> {
    const tsconfig = path.join(dir, `tsconfig.${path.basename(file, '.ts')}.json`);
    await fs.writeFile(
      tsconfig,
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          types: [],
          skipLibCheck: true,
          noUncheckedIndexedAccess: true,
        },
        files: [file],
      }),
    );
    try {
      const { stdout } = await exec(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig], { cwd: dir });
      return { code: 0, output: stdout };
    } catch (err) {
      const e = err as { code?: number; stdout?: string };
      return { code: e.code ?? 1, output: e.stdout ?? String(err) };
    }
  }

  it('calls.ts calls every non-admin operation of the document', async () => {
    const calls = await fs.readFile(path.join(ROOT, 'tests/api/openapi-client/calls.ts'), 'utf8');
    const called = new Set([...calls.matchAll(/api\.(GET|POST|PUT|PATCH|DELETE)\('(\/api\/[^']*)'/g)].map((m) => `${m[1]} ${fastifyPath(m[2]!)}`));
    const nonAdmin = [...operations(doc).keys()].filter((k) => !/ \/api\/(admin|reports|due-fattori)(\/|$)/.test(k));
    expect(nonAdmin.length).toBeGreaterThan(40);
    expect(nonAdmin.filter((k) => !called.has(k)), 'operations calls.ts does not call').toEqual([]);
  });

  it('compiles with tsc against a call of each route', async () => {
    const { code, output } = await typecheck('calls.ts');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 120_000);

  it('does not compile a wrong call (the check is not vacuous)', async () => {
    await fs.writeFile(
      path.join(dir, 'wrong.ts'),
      [
        "import createClient from 'openapi-fetch';",
        "import type { paths } from './api.js';",
        "const api = createClient<paths>({ baseUrl: 'http://localhost:3000' });",
        '// biciId must be a number and the window is required.',
        "export const wrongBody = api.POST('/api/prenotazioni', { body: { biciId: 'due' } });",
        '// No such route.',
        "export const noRoute = api.GET('/api/inesistente');",
        '',
      ].join('\n'),
    );
    const { code, output } = await typecheck('wrong.ts');
    expect(code).not.toBe(0);
    expect(output).toMatch(/wrong\.ts\(5,/);
    expect(output).toMatch(/wrong\.ts\(7,/);
  }, 120_000);
});

describe('the reference page /api/docs', () => {
  it('is HTML whose scripts and styles all come from this server, allowed by its CSP', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: DOCS_PREFIX });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    // No inline script: each has a src and an empty body.
    expect(scripts.filter(([, attrs, body]) => !/\bsrc=/.test(attrs!) || body!.trim() !== '')).toEqual([]);
    const sources = [
      ...scripts.map(([, attrs]) => /\bsrc="([^"]+)"/.exec(attrs!)![1]!),
      ...[...html.matchAll(/<link\b[^>]*\bhref="([^"]+)"/gi)].map((m) => m[1]!),
    ];
    for (const src of sources) {
      const url = new URL(src, `http://localhost${DOCS_PREFIX}`);
      expect(url.origin, src).toBe('http://localhost');
      const asset = await ctx.app.inject({ method: 'GET', url: url.pathname });
      expect(asset.statusCode, src).toBe(200);
    }
    const initializer = await ctx.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/static/swagger-initializer.js` });
    expect(initializer.headers['content-type']).toMatch(/javascript/);
    // The site's strict policy, unchanged: scripts from 'self' only, nothing inline, no eval.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
    // Nothing from another origin: no CDN, no online validator.
    expect(sources.join(' ')).not.toMatch(/https?:/);
    expect(initializer.body).toMatch(/validatorUrl: null/);
  });

  it('its document is the same as /api/openapi.json', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: `${DOCS_PREFIX}/json` });
    expect(res.json()).toEqual(doc);
  });
});
