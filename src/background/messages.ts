// The background's messages and UI language, asked of i18n once per worker for those without
// substitutions (ui/i18n.ts, rememberedMessages): the handlers and the toolbar button share them.
import { rememberedMessages } from '../ui/i18n';

export const { locale, message } = rememberedMessages();
