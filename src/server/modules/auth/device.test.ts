import { describe, expect, it } from 'vitest';
import { describeDevice } from './device.js';

describe('describeDevice (decision 029)', () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', 'Chrome su Android'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari su iOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox su Windows'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0', 'Edge su Windows'],
    ['curl/8.5.0', 'Dispositivo sconosciuto'],
  ])('names %s as %s', (ua, expected) => {
    expect(describeDevice(ua)).toBe(expected);
  });

  it('keeps nothing when there is no header', () => {
    expect(describeDevice(undefined)).toBeNull();
  });
});
