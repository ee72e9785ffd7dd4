import { describe, expect, it } from 'vitest';
import { groupBikesByHint, suggestedModels } from './bike-hints.js';

const bikes = [
  { id: 1, modello: 'City Bike Classic' },
  { id: 2, modello: 'Hybrid Sport 500' },
  { id: 3, modello: 'Mountain Bike XC' },
];

describe('destination hints (spec §5)', () => {
  it('suggests city and hybrid bikes for the centre or shopping', () => {
    expect(groupBikesByHint(bikes, 'Centro città').recommended.map((b) => b.id)).toEqual([1, 2]);
    expect(groupBikesByHint(bikes, 'shopping a Termini').others.map((b) => b.id)).toEqual([3]);
  });
  it('suggests mountain and hybrid bikes for the gym, sport or mountains', () => {
    expect(groupBikesByHint(bikes, 'Palestra').recommended.map((b) => b.id)).toEqual([2, 3]);
    expect(groupBikesByHint(bikes, 'gita in MONTAGNA').others.map((b) => b.id)).toEqual([1]);
  });
  it('reads a destination written in English too', () => {
    expect(groupBikesByHint(bikes, 'City centre').recommended.map((b) => b.id)).toEqual([1, 2]);
    expect(groupBikesByHint(bikes, 'Downtown shopping').others.map((b) => b.id)).toEqual([3]);
    expect(groupBikesByHint(bikes, 'The gym').recommended.map((b) => b.id)).toEqual([2, 3]);
    expect(groupBikesByHint(bikes, 'Mountains').others.map((b) => b.id)).toEqual([1]);
    expect(suggestedModels('university')).toBeNull();
  });

  it('suggests every bike otherwise', () => {
    expect(suggestedModels('università')).toBeNull();
    expect(groupBikesByHint(bikes, '')).toEqual({ recommended: bikes, others: [] });
    expect(groupBikesByHint(bikes, null).recommended).toHaveLength(3);
  });
});
