import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PRIVACY_DATA_ID, PRIVACY_PLACEHOLDERS, type PrivacyInfo } from '../../shared/privacy.js';
import { LINGUE, type Lingua } from '../../shared/i18n/index.js';
import { escapeHtml } from '../integrations/mailer.js';
import { inLinguaFile } from './pages.js';

export const PRIVACY_PAGE = 'privacy.html';

/**
 * /privacy (issue 23): the built page (its notice pre-rendered with placeholders) with the
 * configured controller and contact in their place, and the same in a JSON data block the
 * page hydrates from (src/web/features/privacy). Made once, at start; null without the build.
 */
export function privacyPageHtml(webRoot: string, info: PrivacyInfo): Partial<Record<Lingua, string>> | null {
  if (!existsSync(path.join(webRoot, PRIVACY_PAGE))) return null;
  const pages: Partial<Record<Lingua, string>> = {};
  // The notice in each language the build wrote (issue 36).
  for (const lingua of LINGUE) {
    const file = path.join(webRoot, inLinguaFile(PRIVACY_PAGE, lingua));
    if (existsSync(file)) pages[lingua] = fillPrivacy(readFileSync(file, 'utf8'), info);
  }
  return pages;
}

function fillPrivacy(html: string, info: PrivacyInfo): string {
  const data = JSON.stringify(info).replace(/</g, '\\u003c');
  return html
    .replaceAll(PRIVACY_PLACEHOLDERS.titolare, escapeHtml(info.titolare))
    .replaceAll(PRIVACY_PLACEHOLDERS.contatto, escapeHtml(info.contatto))
    .replace('</head>', `<script type="application/json" id="${PRIVACY_DATA_ID}">${data}</script></head>`);
}
