// The player using this browser: their `me`, a guest made on the first visit, and whoever
// wants to know when it changes (the header's name and profile link).

import { language } from "../i18n.js";
import { api, token } from "./rest.js";

const listeners = new Set();

export const session = {
  me: null,
  /** The caller's `me`; on a first visit (or a token that stopped working) a new guest. */
  async ensure() {
    if (token.get()) {
      try {
        return this.update(await api("GET", "me/"));
      } catch (error) {
        if (error.status !== 401) throw error;
        token.clear();
      }
    }
    const guest = await api("POST", "auth/guest/", {});
    token.set(guest.token);
    return this.update(await api("GET", "me/"));
  },
  async refresh() {
    return this.update(await api("GET", "me/"));
  },
  update(me) {
    this.me = me;
    speakPageLanguage(me);
    for (const listener of listeners) listener(me);
    return me;
  },
  onChange(listener) {
    listeners.add(listener);
  },
};

/** The player's pushes and server texts speak the page's language: once the session knows
 *  its player, their `language` follows the page's (the picker, or the browser's). */
let asked = null;
function speakPageLanguage(me) {
  if (!me?.id || !("language" in me) || me.language === language) return;
  if (asked === me.id) return;
  asked = me.id;
  api("PATCH", "me/", { language }).then(
    (now) => {
      if (session.me?.id === me.id)
        session.me = { ...session.me, language: now?.language ?? language };
    },
    () => {
      asked = null; // tried again with the next `me`
    },
  );
}
