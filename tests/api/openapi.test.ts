import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { validate, compileErrors } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX, fastifyPath, isDocumentedRoute, OPENAPI_PATH } from '../../src/server/http/openapi.js';
import { operationIndex, TAGS } from '../../src/server/http/openapi-operations.js';
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

  it('openapi-operations.ts has an entry for every route and none for a route that does not exist', () => {
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
