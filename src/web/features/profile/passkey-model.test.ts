import { describe, expect, it } from 'vitest';
import { passkeyDay } from './passkey-model';

describe("a passkey's days", () => {
  it("is the day on the college's clock, in the page's language", () => {
    // 23:30 UTC on 2 May is already 3 May in Rome.
    expect(passkeyDay('2026-05-02T23:30:00.000Z', 'Europe/Rome', 'it')).toBe('3 maggio 2026');
    expect(passkeyDay('2026-05-02T23:30:00.000Z', 'Europe/Rome', 'en')).toBe('3 May 2026');
    expect(passkeyDay('2026-12-31T12:00:00.000Z', 'Europe/Rome', 'it')).toBe('31 dicembre 2026');
  });

  it('shows what is not an instant as given', () => {
    expect(passkeyDay('mai', 'Europe/Rome', 'it')).toBe('mai');
  });
});
