// A table's chat (docs/api.md, Chat): the seated players' room for a player at the table, the
// spectators' room for a watcher. Phrases are buttons (`GET /chat/phrases/`), free text a form
// (registered players with enough finished games, not muted: the server's refusal is shown as
// a note); messages come from the list and then from the game socket's `chat` messages, a
// moderator's deletion (`chat_deleted`) removes one, and each other player's message has a
// Report button and a Block button. Blocking a player (here, or on any page of any tab:
// social/blocks.js) removes their messages at once, and keeps out any still on the way. Its
// own store: a chat message never redraws the table, nor the table the field being typed in.
// What players write is inserted as text, never as markup.

import { h } from "../../dom.js";
import { fill, formatDate, gettext, interpolate } from "../../i18n.js";
import { blockPlayer, onBlock } from "../../social/blocks.js";
import { createStore, mount } from "../../store.js";
import { api } from "../../transport/rest.js";
import { playerName } from "../../views/player-name.js";

let phrasesRead = null;
/** The fixed phrases, by id (read once). */
function phrases() {
  phrasesRead ??= api("GET", "chat/phrases/").then(
    (list) => new Map(list.map((phrase) => [phrase.id, phrase.text])),
    (error) => {
      phrasesRead = null;
      throw error;
    },
  );
  return phrasesRead;
}

export function reduce(state, action) {
  switch (action.type) {
    case "messages": {
      const byId = new Map(state.messages.map((m) => [m.id, m]));
      for (const message of action.messages) {
        if (!state.blocked.includes(message.player.id)) byId.set(message.id, message);
      }
      const messages = [...byId.values()].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
      return { ...state, messages: messages.slice(-100) };
    }
    case "deleted":
      return { ...state, messages: state.messages.filter((m) => m.id !== action.id) };
    case "blocked":
      return {
        ...state,
        messages: state.messages.filter((m) => m.player.id !== action.playerId),
        blocked: [...state.blocked, action.playerId],
      };
    case "note":
      return { ...state, note: action.note };
    case "reported":
      return { ...state, reported: { ...state.reported, [action.id]: true } };
    default:
      return state;
  }
}

/** The chat of `game` for `me` (the session's player): `{el, message(m), link(status),
 *  close()}`, or null when the viewer has no room here. */
export async function chatPanel(game, me) {
  const room = game.you ? "players" : "spectators";
  if (!game.you && !game.ranked) return null; // a private table has no spectators
  const off = me.chat === "off";
  let known;
  try {
    known = await phrases();
  } catch {
    return null; // the table plays on without its chat
  }
  const store = createStore(reduce, { messages: [], note: "", reported: {}, blocked: [] });
  const { dispatch } = store;
  const path = `games/${game.id}/chat/`;

  async function reread() {
    if (off) return;
    try {
      const page = await api("GET", `${path}?room=${room}&limit=50`);
      dispatch({ type: "messages", messages: page.results });
    } catch {
      // the socket's messages still come
    }
  }

  async function say(body) {
    dispatch({ type: "note", note: "" });
    try {
      const message = await api("POST", path, { room, ...body });
      dispatch({ type: "messages", messages: [message] });
      return true;
    } catch (error) {
      // `not_allowed`, `muted`, `guest`, `throttled`, `refused`, `invalid`: the detail says why.
      dispatch({ type: "note", note: error.message });
      return false;
    }
  }

  async function report(message) {
    const sure = interpolate(gettext("Report %(name)s's message to the moderators?"), {
      name: message.player.display_name,
    });
    if (!confirm(sure)) return;
    try {
      await api("POST", `chat/messages/${message.id}/reports/`, {});
      dispatch({ type: "reported", id: message.id });
    } catch (error) {
      if (error.code === "already_reported") dispatch({ type: "reported", id: message.id });
      else dispatch({ type: "note", note: error.message });
    }
  }

  async function block(message) {
    const sure = interpolate(
      gettext(
        "Block %(name)s? Neither of you will see the other's messages, and they can no longer ask to be your friend or challenge you.",
      ),
      { name: message.player.display_name },
    );
    if (!confirm(sure)) return;
    try {
      await blockPlayer(message.player); // the panel hears of it as every other one does
    } catch (error) {
      dispatch({ type: "note", note: error.message });
    }
  }

  const title = room === "players" ? gettext("Table chat") : gettext("Spectators' chat");
  const el = h("section", {
    class: "panel chat",
    testid: "chat",
    "data-room": room,
    "aria-labelledby": "chat-h",
  });
  if (off) {
    el.append(
      h("h2", { id: "chat-h" }, title),
      h(
        "p",
        { class: "muted", testid: "chat-off" },
        gettext("You turned the chat off."),
        " ",
        h("a", { href: "/#settings" }, gettext("Settings")),
      ),
    );
    return { el, message() {}, link() {}, close() {} };
  }

  const list = h("ol", {
    class: "chat-messages",
    testid: "chat-messages",
    "aria-live": "polite",
    "aria-label": gettext("Messages"),
  });
  mount(
    store,
    list,
    (s) => [s.messages, s.reported],
    (s) =>
      s.messages.length
        ? s.messages.map((m) => messageView(m, { me, known, reported: s.reported, report, block }))
        : h("li", { class: "muted empty" }, gettext("No message yet.")),
  );
  // The newest message in view, unless the reader scrolled up to read older ones.
  let atBottom = true;
  list.addEventListener("scroll", () => {
    atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  });
  store.subscribe(() => {
    if (atBottom) list.scrollTop = list.scrollHeight;
  });

  const phraseButtons = h(
    "div",
    { class: "phrases", role: "group", "aria-label": gettext("Phrases") },
    [...known].map(([id, text]) =>
      h(
        "button",
        {
          type: "button",
          testid: "chat-phrase",
          "data-phrase": id,
          "data-key": `phrase-${id}`,
          dir: "auto",
          onclick: () => say({ phrase: id }),
        },
        text,
      ),
    ),
  );
  const field = h("input", {
    id: "chat-text",
    name: "text",
    testid: "chat-text",
    maxlength: 200,
    required: true,
    autocomplete: "off",
    placeholder: gettext("Say something"),
  });
  const form = me.is_guest
    ? h(
        "p",
        { class: "muted small" },
        fill(gettext("Phrases only: %(register)s to write your own words."), {
          register: h("a", { href: "/" }, gettext("register")),
        }),
      )
    : h(
        "form",
        {
          class: "row chat-form",
          onsubmit: async (event) => {
            event.preventDefault();
            const text = field.value.trim();
            if (text && (await say({ text }))) field.value = "";
          },
        },
        h("label", { for: "chat-text", class: "sr-only" }, gettext("Message")),
        field,
        h("button", { type: "submit", testid: "chat-send" }, gettext("Send")),
      );
  const note = h("div", { role: "status" });
  mount(
    store,
    note,
    (s) => [s.note],
    (s) => (s.note ? h("p", { class: "chat-note", testid: "chat-note" }, s.note) : null),
  );
  el.append(h("h2", { id: "chat-h" }, title), list, note, phraseButtons, form);
  if (me.chat === "phrases") {
    el.append(
      h("p", { class: "muted small" }, gettext("You see the phrases only (your settings).")),
    );
  }
  const unsubscribe = onBlock((playerId) => dispatch({ type: "blocked", playerId }));
  await reread();
  return {
    el,
    message(message) {
      if (message.type === "chat" && message.message?.room === room) {
        dispatch({ type: "messages", messages: [message.message] });
      } else if (message.type === "chat_deleted" && message.room === room) {
        dispatch({ type: "deleted", id: message.id });
      }
    },
    /** The game socket (re)connected: what it missed. */
    link(status) {
      if (status === "open") reread();
    },
    /** The page is left. */
    close() {
      unsubscribe();
    },
  };
}

function messageView(message, { me, known, reported, report, block }) {
  const own = message.player.id === me.id;
  const phrase = message.phrase !== undefined && message.phrase !== null;
  const text = phrase ? (known.get(message.phrase) ?? message.phrase) : message.text;
  return h(
    "li",
    {
      testid: "chat-message",
      "data-id": message.id,
      "data-player": message.player.id,
      "data-phrase": phrase ? message.phrase : null,
      class: own ? "own" : null,
    },
    h("span", { class: "who" }, own ? gettext("You") : playerName(message.player)),
    " ",
    h(
      "span",
      { class: phrase ? "said phrase" : "said", dir: phrase ? "auto" : null },
      phrase ? text : h("bdi", {}, text),
    ),
    " ",
    h(
      "time",
      { class: "muted small", datetime: message.at },
      formatDate(message.at, { hour: "2-digit", minute: "2-digit" }),
    ),
    own
      ? null
      : reported[message.id]
        ? h("span", { class: "muted small", testid: "reported" }, gettext("reported"))
        : h(
            "button",
            {
              type: "button",
              class: "quiet report",
              testid: "report-message",
              "data-key": `report-${message.id}`,
              onclick: () => report(message),
            },
            gettext("Report"),
          ),
    own
      ? null
      : h(
          "button",
          {
            type: "button",
            class: "quiet block",
            testid: "block-author",
            "data-key": `block-${message.id}`,
            onclick: () => block(message),
          },
          gettext("Block"),
        ),
  );
}
