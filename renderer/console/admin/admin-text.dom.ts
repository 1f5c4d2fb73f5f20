import { i18n } from '../../i18n/i18n.svelte';
import { adminText, type AdminText } from './admin-strings.std.ts';

/** The tabs' texts in the language the kiosk shows now; read in markup, they follow a switch. */
export const at: AdminText = (key, params) => adminText(i18n.locale, key, params);
