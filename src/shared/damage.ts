/**
 * Damage reported when a bike is returned (decision 022): the categories, their Italian
 * labels (return form, admin list, emails, PDF) and the text's limit. No zod here: the
 * dashboard reads these without loading the schemas' chunk.
 */
export const DAMAGE_CATEGORIES = ['freni', 'ruote', 'catena', 'luci', 'telaio', 'altro'] as const;
export type DamageCategory = (typeof DAMAGE_CATEGORIES)[number];

/** In the order of the return form. */
export const DAMAGE_CATEGORY_LABELS: Record<DamageCategory, string> = {
  freni: 'Freni',
  ruote: 'Ruote',
  catena: 'Catena',
  luci: 'Luci',
  telaio: 'Telaio',
  altro: 'Altro',
};

export const DAMAGE_DESCRIPTION_MAX = 500;
