/** Resident codes are compared case-insensitively: stored and looked up upper-case. */
export function normaliseSigla(raw: string): string {
  return raw.trim().toUpperCase();
}

export const SIGLA_PATTERN = /^[A-Z0-9][A-Z0-9_-]{0,31}$/;

export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}
