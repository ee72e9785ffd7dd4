import { negotiate } from '@fastify/accept-negotiator';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The app's compression (app.ts registers @fastify/compress with these): answers over 1 KB
 * leave compressed, brotli at quality 4 (the plugin's default) preferred, else gzip.
 */
export const COMPRESSION = { threshold: 1024, encodings: ['br', 'gzip'] as ('br' | 'gzip')[] };
/**
 * Brotli as the plugin's (text, quality 4), told the input's size: the encoder then sizes its
 * window and buffers to a few-KB answer instead of its default 4 MB window (issue 33: the RSS
 * under load).
 */
const brotli = (input: Buffer) =>
  zlib.brotliCompressSync(input, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
      [zlib.constants.BROTLI_PARAM_LGWIN]: Math.max(zlib.constants.BROTLI_MIN_WINDOW_BITS, Math.min(22, Math.ceil(Math.log2(input.length + 1)))),
    },
  });

/**
 * A JSON answer that many requests send as it is (decision 040: the same free bikes from the
 * same fleet picture). Its compressed bytes are made once, on the first request that asks
 * for each encoding, and kept with it: the answer is exact because the text is, and the
 * compression of a text is a function of it.
 */
export interface SharedJson {
  readonly json: string;
  /** The compressed bytes, shared by every answer with the same text (filled on first use). */
  readonly compressed: { br?: Buffer; gzip?: Buffer };
}

/**
 * A kept copy of exactly its bytes: zlib's sync output is a slice of its 16 KB output chunk,
 * so a few hundred compressed bytes kept for later would hold the whole chunk (issue 33: the
 * answers of one picture held ~30 MB that way).
 */
function exact(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/** The encoding @fastify/compress would choose for this request and a text of `bytes`, if any. */
function chosenEncoding(request: FastifyRequest, bytes: number): 'br' | 'gzip' | null {
  const accept = request.headers['accept-encoding'];
  if (!accept || bytes < COMPRESSION.threshold) return null;
  // As the plugin reads the header: `*` and `x-gzip` stand for gzip.
  const encoding = negotiate(accept.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), COMPRESSION.encodings);
  return encoding === 'br' || encoding === 'gzip' ? encoding : null;
}

function sendEncoded(reply: FastifyReply, encoding: 'br' | 'gzip', bytes: Buffer): FastifyReply {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  reply.header('content-encoding', encoding);
  return reply.send(bytes);
}

/** Sends a `SharedJson` as @fastify/compress would send its text (same negotiation, threshold, `Vary`), compressing at most once per encoding. */
export function sendSharedJson(request: FastifyRequest, reply: FastifyReply, body: SharedJson): FastifyReply {
  reply.type('application/json; charset=utf-8');
  const encoding = chosenEncoding(request, Buffer.byteLength(body.json));
  if (!encoding) return reply.send(body.json);
  const bytes = (body.compressed[encoding] ??= exact(encoding === 'br' ? brotli(Buffer.from(body.json)) : zlib.gzipSync(body.json)));
  return sendEncoded(reply, encoding, bytes);
}

/**
 * Sends bytes made for this one answer (a page rendered for its user) as @fastify/compress
 * would, but with brotli told their size (brotli() above): a page of 100–160 KB then
 * costs about 1.1 ms to compress instead of 1.6 (issue 33). The reply's type is the caller's.
 */
export function sendCompressedBytes(request: FastifyRequest, reply: FastifyReply, bytes: Buffer): FastifyReply {
  const encoding = chosenEncoding(request, bytes.length);
  if (!encoding) return reply.send(bytes);
  return sendEncoded(reply, encoding, encoding === 'br' ? brotli(bytes) : zlib.gzipSync(bytes));
}
