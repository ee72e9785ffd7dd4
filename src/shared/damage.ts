import type { PlainKey } from './schemas/message.js';

/**
 * Damage reported when a bike is returned (decision 022): the categories, their labels
 * (return form, admin list, emails, PDF; in either language) and the text's limit. No zod
 * here: the dashboard reads these without loading the schemas' chunk.
 */
export const DAMAGE_CATEGORIES = ['freni', 'ruote', 'catena', 'luci', 'telaio', 'altro'] as const;
export type DamageCategory = (typeof DAMAGE_CATEGORIES)[number];

/** In the order of the return form: keys of the catalogue (user/damage.json), put into words where they are shown. */
export const DAMAGE_CATEGORY_LABELS: Record<DamageCategory, PlainKey> = {
  freni: 'damage.freni',
  ruote: 'damage.ruote',
  catena: 'damage.catena',
  luci: 'damage.luci',
  telaio: 'damage.telaio',
  altro: 'damage.altro',
};

export const DAMAGE_DESCRIPTION_MAX = 500;
