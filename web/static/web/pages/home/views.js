// The start page drawn from its state, a part at a time (page.js mounts each where it goes);
// `actions` are the page's answers to the forms and buttons.

import { errorLine, h } from "../../dom.js";
import { presetTitle, RULES } from "../../rules.js";
import { mostSeats } from "./store.js";

// Ranked tables (docs/api.md, Ranked matchmaking); a private table may seat up to 8.
const RANKED_SIZES = [2, 3, 4, 5];
const TABLE_SIZES = [2, 3, 4, 5, 6, 7, 8];

/** `onsubmit` for a form: no page load, and the form's fields to `send`. */
const submitted = (send) => (event) => {
  event.preventDefault();
  send(new FormData(event.target));
};

export const errorView = (state) => errorLine(state.error);

export function activeTableView({ me }) {
  if (!me.active_game) return null;
  return h(
    "section",
    { class: "panel highlight" },
    h("h2", {}, "Your table"),
    h(
      "p",
      {},
      "You have a seat at a table. ",
      h("a", { href: `/games/${me.active_game}`, class: "button" }, "Return to it"),
    ),
  );
}

// You ---------------------------------------------------------------------------------

export function youView(state, actions) {
  const { me } = state;
  const { rating } = me;
  const rename = h(
    "form",
    {
      class: "row",
      onsubmit: submitted((data) => actions.rename(data.get("display_name").trim())),
    },
    h("label", { for: "display-name" }, "Name"),
    h("input", {
      id: "display-name",
      name: "display_name",
      value: me.display_name,
      required: true,
      maxlength: 32,
      autocomplete: "nickname",
    }),
    h("button", { type: "submit" }, "Rename"),
  );
  const account = me.is_guest
    ? h(
        "details",
        {
          class: "accounts",
          open: state.accountOpen || null,
          ontoggle: (event) => actions.openAccount(event.target.open),
        },
        h("summary", {}, "Register or log in"),
        credentialsForm(
          "Register",
          "Keep this name, rating and history with a password.",
          "register",
          actions.register,
        ),
        credentialsForm(
          "Log in",
          "Already registered? This browser becomes that player.",
          "login",
          actions.logIn,
        ),
      )
    : h(
        "p",
        { class: "row" },
        h("span", {}, "Registered player."),
        h("button", { type: "button", onclick: () => actions.logOut() }, "Log out"),
      );
  return [
    h("h2", { id: "you-h" }, "You"),
    h(
      "p",
      {},
      h("strong", {}, me.display_name),
      me.is_guest ? h("span", { class: "badge" }, "guest") : null,
      " · rating ",
      h("span", {}, rating.ordinal.toFixed(1)),
      rating.provisional
        ? h("span", { class: "badge", title: "Fewer than a dozen rated games" }, "provisional")
        : null,
      ` · ${rating.games} rated games · `,
      h("a", { href: `/players/${me.id}` }, "profile"),
    ),
    rename,
    account,
    settingsView(me, actions),
  ];
}

const CHAT_SHOWN = [
  ["all", "everything"],
  ["phrases", "the phrases only"],
  ["off", "nothing"],
];
const CHALLENGERS = [
  ["everyone", "anyone"],
  ["friends", "my friends"],
  ["nobody", "nobody"],
];

/** The player's settings (`PATCH /me/`), each saved as it changes: what of a table's chat they
 *  see, who may challenge them, and appearing offline to their friends. */
function settingsView(me, actions) {
  const choice = (key, label, options) =>
    h(
      "div",
      { class: "setting" },
      h("label", { for: `setting-${key}` }, label),
      h(
        "select",
        {
          id: `setting-${key}`,
          testid: `setting-${key.replaceAll("_", "-")}`,
          "data-key": `setting-${key}`,
          onchange: (event) => actions.setting(key, event.target.value),
        },
        options.map(([value, text]) => h("option", { value, selected: me[key] === value }, text)),
      ),
    );
  return h(
    "fieldset",
    { class: "settings", id: "settings" },
    h("legend", {}, "Settings"),
    choice("chat", "At a table, show the chat's", CHAT_SHOWN),
    choice("challenges_from", "Who may challenge me", CHALLENGERS),
    h(
      "label",
      { class: "check" },
      h("input", {
        type: "checkbox",
        testid: "setting-appear-offline",
        "data-key": "setting-appear-offline",
        checked: me.appear_offline,
        onchange: (event) => actions.setting("appear_offline", event.target.checked),
      }),
      " Appear offline to my friends",
    ),
  );
}

function credentialsForm(title, hint, prefix, send) {
  return h(
    "form",
    {
      class: "credentials",
      onsubmit: submitted((data) =>
        send({ username: data.get("username"), password: data.get("password") }),
      ),
    },
    h("h3", {}, title),
    h("p", { class: "muted" }, hint),
    h("label", { for: `${prefix}-username` }, "Username"),
    h("input", {
      id: `${prefix}-username`,
      name: "username",
      required: true,
      autocomplete: "username",
    }),
    h("label", { for: `${prefix}-password` }, "Password"),
    h("input", {
      id: `${prefix}-password`,
      name: "password",
      type: "password",
      required: true,
      autocomplete: prefix === "register" ? "new-password" : "current-password",
    }),
    h("button", { type: "submit" }, title),
  );
}

// A new table, joining one -------------------------------------------------------------

/** The new-table form; `newTableFields` draws what is inside it. */
export const newTableForm = (actions) =>
  h("form", {
    class: "panel",
    "aria-labelledby": "new-h",
    onsubmit: submitted(actions.createTable),
  });

/** A preset fills the house rules, which the host may change one by one; the seats go to 8
 *  with two decks (docs/rules.md §12), and past what the decks allow are not offered. */
export function newTableFields(state, actions) {
  const { catalog, form } = state;
  const most = mostSeats(catalog, form.values);
  return [
    h("h2", { id: "new-h" }, "Play against the CPU or friends"),
    h(
      "p",
      { class: "muted" },
      "A private table: add CPU seats or send the invite link, then start.",
    ),
    h(
      "div",
      { class: "row" },
      h("label", { for: "preset" }, "Variant"),
      h(
        "select",
        {
          id: "preset",
          name: "preset",
          testid: "preset",
          "data-key": "preset",
          onchange: (event) => actions.choosePreset(event.target.value),
        },
        catalog.presets.map(({ preset }) =>
          h("option", { value: preset, selected: preset === form.preset }, presetTitle(preset)),
        ),
      ),
      h("label", { for: "max-players" }, "Seats"),
      h(
        "select",
        {
          id: "max-players",
          name: "max_players",
          testid: "max-players",
          "data-key": "max-players",
          onchange: (event) => actions.chooseSeats(Number(event.target.value)),
        },
        TABLE_SIZES.map((n) =>
          h("option", { value: n, selected: n === form.seats, disabled: n > most }, String(n)),
        ),
      ),
      h("button", { type: "submit", class: "primary", testid: "new-table" }, "New table"),
    ),
    h(
      "details",
      {
        class: "house-rules",
        testid: "house-rules",
        open: state.rulesOpen || null,
        ontoggle: (event) => actions.openRules(event.target.open),
      },
      h("summary", {}, "House rules"),
      h(
        "p",
        { class: "muted small" },
        "The variant fills these (docs/rules.md §9 and §12); change any of them.",
      ),
      h(
        "fieldset",
        { class: "rules" },
        h("legend", { class: "sr-only" }, "House rules"),
        RULES.map((rule) =>
          h(
            "div",
            { class: "field" },
            h("label", { for: `rule-${rule.key}` }, rule.label),
            ruleField(rule, form.values[rule.key], actions),
          ),
        ),
      ),
    ),
  ];
}

function ruleField(rule, value, actions) {
  const attrs = {
    id: `rule-${rule.key}`,
    name: rule.key,
    "data-key": `rule-${rule.key}`,
    onchange: (event) => actions.setRule(rule.key, event.target.value),
  };
  if (!rule.options) {
    const { min, max } = rule;
    return h("input", { ...attrs, type: "number", min, max, required: true, value });
  }
  return h(
    "select",
    attrs,
    rule.options.map(([option, text]) =>
      h("option", { value: option, selected: option === value }, text),
    ),
  );
}

export function joinView(actions) {
  return h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "join-h",
      onsubmit: submitted((data) => actions.join(data.get("invite").trim())),
    },
    h("h2", { id: "join-h" }, "Join a friend's table"),
    h(
      "div",
      { class: "row" },
      h("label", { for: "invite" }, "Invite link"),
      h("input", { id: "invite", name: "invite", required: true, placeholder: "http://…/join/…" }),
      h("button", { type: "submit" }, "Join"),
    ),
  );
}

// Ranked queue ---------------------------------------------------------------------------

/** How long the ticket has searched, "1:05": the page's clock rewrites it each second. */
export function waited(ticket) {
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(ticket.created_at)) / 1000));
  return `Searching… waited ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

export function queueView({ ticket, me }, actions) {
  const searching = ticket?.status === "searching";
  return h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "ranked-h",
      onsubmit: submitted((data) => actions.queue(data.getAll("player_counts").map(Number))),
    },
    h("h2", { id: "ranked-h" }, "Ranked"),
    h("p", { class: "muted" }, "Matched with players of your rating; the result moves it."),
    h(
      "fieldset",
      { class: "sizes", disabled: searching },
      h("legend", {}, "Table sizes"),
      RANKED_SIZES.map((n) =>
        h(
          "label",
          { class: "check" },
          h("input", {
            type: "checkbox",
            name: "player_counts",
            value: n,
            checked: ticket ? ticket.player_counts.includes(n) : true,
          }),
          ` ${n} players`,
        ),
      ),
    ),
    searching
      ? h(
          "p",
          { class: "row" },
          h(
            "span",
            { testid: "queue-status", class: "status", "data-status": "searching" },
            waited(ticket),
          ),
          h(
            "button",
            {
              type: "button",
              testid: "cancel-queue",
              "data-key": "cancel-queue",
              onclick: () => actions.cancelQueue(),
            },
            "Cancel",
          ),
        )
      : h(
          "p",
          { class: "row" },
          h(
            "button",
            {
              type: "submit",
              class: "primary",
              testid: "queue-ranked",
              "data-key": "queue-ranked",
              disabled: !!me.active_game,
            },
            "Find a ranked game",
          ),
          ticket
            ? h(
                "span",
                { testid: "queue-status", class: "status", "data-status": ticket.status },
                `Last search: ${ticket.status}`,
              )
            : null,
        ),
  );
}
