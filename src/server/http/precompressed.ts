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
 * under load), and a page of 100–160 KB costs about 1.1 ms to compress instead of 1.6.
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
function chosenEncoding(request: FastifyRequest, bytes: number, encodings = COMPRESSION.encodings): 'br' | 'gzip' | null {
  const accept = request.headers['accept-encoding'];
  if (!accept || bytes < COMPRESSION.threshold) return null;
  // As the plugin reads the header: `*` and `x-gzip` stand for gzip.
  const encoding = negotiate(accept.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), encodings);
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
 * A page's head, the same on every answer of its page (a template's styles, about 48 KB), kept
 * with its gzip made once (decision 073): the raw deflate, ended on a byte boundary by a sync
 * flush so that it is not the stream's last block, the head's CRC-32 and its last 32 KB. Each
 * answer then deflates only its own part, told those 32 KB as its dictionary: what the browser
 * decodes just before them. `gzip` is null on a Node without `zlib.crc32` (before 20.15): every
 * answer is then compressed whole.
 */
export interface KeptHead {
  readonly bytes: Buffer;
  readonly gzip: { readonly deflated: Buffer; readonly crc: number; readonly window: Buffer } | null;
}

/** deflate's window: a back-reference reaches at most this far. */
const DEFLATE_WINDOW = 32 * 1024;
/** gzip's header (RFC 1952): deflate, no flags, no time, no extra flags, from Unix. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

export function keptHead(bytes: Buffer): KeptHead {
  if (typeof zlib.crc32 !== 'function') return { bytes, gzip: null };
  return {
    bytes,
    gzip: {
      deflated: exact(zlib.deflateRawSync(bytes, { level: zlib.constants.Z_BEST_COMPRESSION, finishFlush: zlib.constants.Z_SYNC_FLUSH })),
      crc: zlib.crc32(bytes),
      window: bytes.subarray(Math.max(0, bytes.length - DEFLATE_WINDOW)),
    },
  };
}

/**
 * One gzip member for `head` then `rest`, the head's deflate reused: the same bytes decoded as
 * gzipping the two together, at about half the work for a rendered page (decision 073). Null
 * when the head has no kept deflate.
 */
export function gzipAfterHead(head: KeptHead, rest: Buffer): Buffer | null {
  if (!head.gzip) return null;
  const { deflated, crc, window } = head.gzip;
  const own = zlib.deflateRawSync(rest, { level: zlib.constants.Z_DEFAULT_COMPRESSION, dictionary: window });
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(zlib.crc32(rest, crc) >>> 0, 0);
  trailer.writeUInt32LE((head.bytes.length + rest.length) % 2 ** 32, 4);
  return Buffer.concat([GZIP_HEADER, deflated, own, trailer]);
}

/** A rendered page: gzip before brotli when the browser takes both as well (negotiate's ties go to the first). */
const PAGE_ENCODINGS: ('gzip' | 'br')[] = ['gzip', 'br'];

/**
 * Sends a page rendered for its user, made of a head the same on every answer and its own
 * `rest`, compressed as @fastify/compress would choose (threshold, `Vary`) but gzip first: its
 * head's deflate is kept (`keptHead`), and only the rest is compressed per answer. Brotli, for
 * a browser that prefers it, compresses the whole page, as does gzip without a kept deflate.
 */
export function sendPageBytes(request: FastifyRequest, reply: FastifyReply, head: KeptHead, rest: Buffer): FastifyReply {
  const size = head.bytes.length + rest.length;
  const encoding = chosenEncoding(request, size, PAGE_ENCODINGS);
  const stitched = encoding === 'gzip' ? gzipAfterHead(head, rest) : null;
  if (stitched) return sendEncoded(reply, 'gzip', stitched);
  const whole = Buffer.concat([head.bytes, rest], size);
  if (encoding === 'gzip') return sendEncoded(reply, 'gzip', zlib.gzipSync(whole));
  if (encoding === 'br') return sendEncoded(reply, 'br', brotli(whole));
  return reply.send(whole);
}
