import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { testo } from '../../../shared/i18n/index.js';
import type { PlainKey } from '../../../shared/schemas/message.js';
import { TICKET_PHOTO_BYTES_MAX, TICKET_PHOTOS_MAX } from '../../../shared/staff.js';
import { AppError, badRequest } from '../../http/errors.js';
import { encodePhoto, type EncodedPhoto } from './photos.js';

/** @fastify/multipart's limits for the tickets' forms: 3 photos of 10 MB, a few small fields. */
export const MULTIPART_LIMITS = {
  fileSize: TICKET_PHOTO_BYTES_MAX,
  files: TICKET_PHOTOS_MAX,
  fields: 8,
  parts: 12,
  fieldNameSize: 64,
  fieldSize: 8 * 1024,
  headerPairs: 100,
};

const tooLarge = () => new AppError(413, testo('interventiApi.photoTooLarge'), 'PHOTO_TOO_LARGE');
const tooMany = () => new AppError(413, testo('interventiApi.tooManyPhotos'), 'TOO_MANY_PHOTOS');

/** A multipart error of the parser (busboy, @fastify/multipart) as the person's refusal. */
function refusal(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge();
  if (code === 'FST_FILES_LIMIT') return tooMany();
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new AppError(415, testo('interventiApi.notMultipart'), 'NOT_MULTIPART');
  return badRequest(testo('interventiApi.badForm'), 'BAD_FORM');
}

/** A form read: its text fields (the last of a name wins) and the bytes of its files `foto`. */
export interface ReadForm {
  fields: Record<string, string>;
  files: Buffer[];
}

/**
 * Reads a multipart form part by part, each file into memory up to 10 MB (a bigger one is 413:
 * the stream's `truncated`), at most 3 of them; any malformed body is 400, never 500.
 */
export async function readForm(request: FastifyRequest): Promise<ReadForm> {
  if (!request.isMultipart()) throw refusal({ code: 'FST_INVALID_MULTIPART_CONTENT_TYPE' });
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const files: Buffer[] = [];
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'field') {
        if (part.valueTruncated || part.fieldnameTruncated || typeof part.value !== 'string') throw badRequest(testo('interventiApi.badForm'), 'BAD_FORM');
        fields[part.fieldname] = part.value;
        continue;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.file) chunks.push(chunk as Buffer);
      if (part.file.truncated) throw tooLarge();
      if (part.fieldname !== 'foto') throw badRequest(testo('interventiApi.badForm'), 'BAD_FORM');
      const bytes = Buffer.concat(chunks);
      // An empty file input (a form sent with no photo chosen) is no photo.
      if (bytes.length > 0) files.push(bytes);
    }
  } catch (err) {
    throw refusal(err);
  }
  return { fields, files };
}

/** Encodes every photo, one after the other (sharp's own threads), before any transaction. */
export async function encodeAll(files: Buffer[]): Promise<EncodedPhoto[]> {
  const out: EncodedPhoto[] = [];
  for (const f of files) out.push(await encodePhoto(f));
  return out;
}

/**
 * Checks a form's fields with their schema; the first refused field answers 400 with its key,
 * in the person's language (the schemas' own messages are Italian outside Fastify's validation).
 */
export function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, string>, keys: Record<string, PlainKey>): z.output<S> {
  const parsed = schema.safeParse({ ...fields });
  if (parsed.success) return parsed.data;
  const field = String(parsed.error.issues[0]?.path[0] ?? '');
  const key = keys[field] ?? 'interventiApi.badForm';
  throw badRequest(testo(key), 'VALIDATION_ERROR', { fields: { [field || '_']: testo(key) } });
}
