/**
 * Destination hints of spec §5: a destination mentioning the centre or shopping suggests
 * city or hybrid bikes; one mentioning the gym, sport or mountains suggests mountain or
 * hybrid bikes; otherwise every bike is suggested. The destination is written by the person,
 * in Italian or in English (issue 36): the words of both languages count.
 */
const RULES: { words: string[]; models: string[] }[] = [
  { words: ['centro', 'città', 'citta', 'shopping', 'centre', 'center', 'downtown'], models: ['city', 'hybrid'] },
  { words: ['palestra', 'sport', 'montagna', 'gym', 'mountain'], models: ['mountain', 'hybrid'] },
];

export function suggestedModels(destinazione: string | null | undefined): string[] | null {
  const text = (destinazione ?? '').toLowerCase();
  const models = new Set<string>();
  for (const rule of RULES) {
    if (rule.words.some((w) => text.includes(w))) rule.models.forEach((m) => models.add(m));
  }
  return models.size > 0 ? [...models] : null;
}

export function groupBikesByHint<T extends { modello: string }>(
  bikes: readonly T[],
  destinazione: string | null | undefined,
): { recommended: T[]; others: T[] } {
  const models = suggestedModels(destinazione);
  if (!models) return { recommended: [...bikes], others: [] };
  const recommended: T[] = [];
  const others: T[] = [];
  for (const bike of bikes) {
    const model = bike.modello.toLowerCase();
    (models.some((m) => model.includes(m)) ? recommended : others).push(bike);
  }
  return { recommended, others };
}
