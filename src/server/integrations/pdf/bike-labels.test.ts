import jsQR from 'jsqr';
import { describe, expect, it } from 'vitest';
import { qrMatrix, type QrMatrix } from './bike-labels.js';

/** The matrix as an RGBA image, `scale` pixels a module, with the quiet zone: what a camera would see on the label. */
function toImage(qr: QrMatrix, scale = 4, quiet = 4): { data: Uint8ClampedArray; width: number; height: number } {
  const side = (qr.size + 2 * quiet) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let y = 0; y < qr.size; y++) {
    for (let x = 0; x < qr.size; x++) {
      if (!qr.dark[y]![x]) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + quiet) * scale + dy) * side + (x + quiet) * scale + dx) * 4;
          data[i] = data[i + 1] = data[i + 2] = 0;
        }
      }
    }
  }
  return { data, width: side, height: side };
}

describe('the labels\' QR code', () => {
  it('reads back as the bike page\'s address', async () => {
    for (const url of ['http://localhost:3000/bici/07', 'https://bici.collegioelis.it/bici/City%2012']) {
      const qr = await qrMatrix(url);
      const image = toImage(qr);
      expect(jsQR(image.data, image.width, image.height)?.data).toBe(url);
    }
  });

  it('differs from one bike to another (the matrix is the address\'s, not a fixed picture)', async () => {
    const a = await qrMatrix('http://localhost:3000/bici/07');
    const b = await qrMatrix('http://localhost:3000/bici/08');
    expect(a.size).toBe(b.size);
    expect(a.dark).not.toEqual(b.dark);
    const image = toImage(b);
    expect(jsQR(image.data, image.width, image.height)?.data).toBe('http://localhost:3000/bici/08');
  });
});
