import type Sharp from 'sharp';
import { testo } from '../../../shared/i18n/index.js';
import { TICKET_PHOTO_SIDE_MAX } from '../../../shared/staff.js';
import { badRequest } from '../../http/errors.js';

/** What sharp must read a photo as, from its bytes: never its name or its declared type. */
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'heif']);

/**
 * A decoded photo may hold at most this many pixels (a decompression bomb: a few kilobytes that
 * decode to gigabytes). 50 megapixels is above any phone's camera.
 */
export const PHOTO_PIXELS_MAX = 50_000_000;

/** A photo as it is stored (`interventi_foto`): JPEG bytes with no metadata, and its size. */
export interface EncodedPhoto {
  mime: 'image/jpeg';
  dati: Buffer;
  larghezza: number;
  altezza: number;
}

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips) is loaded with the first photo, not at start-up: it costs a process about 20 MB
 * of memory, and most never see a photo. One photo at a time and no operation cache: a photo is
 * rare beside the booking path, which keeps the cores.
 */
function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}

const notAPhoto = () => badRequest(testo('interventiApi.photoNotImage'), 'PHOTO_NOT_IMAGE');

/**
 * Re-encodes an uploaded photo (issue 48): its type read from its bytes (JPEG, PNG, WebP, HEIF/AVIF
 * as far as sharp decodes them; anything else is 400), turned upright by its EXIF orientation, made
 * to fit inside 1600×1600 without enlarging, and written as JPEG with no metadata at all (sharp
 * keeps none unless asked: no EXIF, so no GPS, no ICC, no XMP). Before any transaction.
 */
export async function encodePhoto(bytes: Buffer): Promise<EncodedPhoto> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: PHOTO_PIXELS_MAX, failOn: 'error' as const };
  let format: string | undefined;
  try {
    format = (await sharp(bytes, options).metadata()).format;
  } catch {
    throw notAPhoto();
  }
  if (!format || !ACCEPTED.has(format)) throw notAPhoto();
  try {
    const { data, info } = await sharp(bytes, options)
      .rotate()
      .resize({ width: TICKET_PHOTO_SIDE_MAX, height: TICKET_PHOTO_SIDE_MAX, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { mime: 'image/jpeg', dati: data, larghezza: info.width, altezza: info.height };
  } catch {
    throw notAPhoto();
  }
}
