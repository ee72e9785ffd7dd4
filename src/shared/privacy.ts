import type { PlainKey } from './schemas/message.js';

/**
 * The privacy notice's data (issue 23): who the controller is and how to reach them, from the
 * configuration (PRIVACY_TITOLARE, PRIVACY_CONTATTO). The built page holds the placeholders;
 * the server puts the configured values in their place and in the data block the page reads
 * (src/server/pages/privacy-page.ts), so the HTML and the hydrated page say the same.
 */
export interface PrivacyInfo {
  titolare: string;
  contatto: string;
}

export const PRIVACY_PLACEHOLDERS: PrivacyInfo = {
  titolare: '__BICIELIS_PRIVACY_TITOLARE__',
  contatto: '__BICIELIS_PRIVACY_CONTATTO__',
};

/** The id of the `<script type="application/json">` block with the PrivacyInfo, in privacy.html's head. */
export const PRIVACY_DATA_ID = 'bicielis-privacy';

/**
 * How long data is kept, until the college's own retention rule (RETENTION_MONTHS) says
 * otherwise: a key of the catalogue (account/privacy-retention.json), put into words where shown.
 */
export const PRIVACY_RETENTION_TEXT: PlainKey = 'privacyRetention.default';
