// The start page drawn from its state, a part at a time (page.js mounts each where it goes);
// `actions` are the page's answers to the forms and buttons.

import { errorLine, h } from "../../dom.js";
import { gettext, interpolate, ngettext, pgettext } from "../../i18n.js";
import { presetTitle, RULES } from "../../rules.js";
import { decimal } from "../../views/text.js";
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
    h("h2", {}, gettext("Your table")),
    h(
      "p",
      {},
      gettext("You have a seat at a table."),
      " ",
      h("a", { href: `/games/${me.active_game}`, class: "button" }, gettext("Return to it")),
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
    h("label", { for: "display-name" }, gettext("Name")),
    h("input", {
      id: "display-name",
      name: "display_name",
      dir: "auto",
      value: me.display_name,
      required: true,
      maxlength: 32,
      autocomplete: "nickname",
    }),
    h("button", { type: "submit" }, gettext("Rename")),
  );
  const account = me.is_guest
    ? h(
        "details",
        {
          class: "accounts",
          open: state.accountOpen || null,
          ontoggle: (event) => actions.openAccount(event.target.open),
        },
        h("summary", {}, gettext("Register or log in")),
        credentialsForm(
          gettext("Register"),
          gettext("Keep this name, rating and history with a password."),
          "register",
          actions.register,
        ),
        credentialsForm(
          gettext("Log in"),
          gettext("Already registered? This browser becomes that player."),
          "login",
          actions.logIn,
        ),
      )
    : h(
        "p",
        { class: "row" },
        h("span", {}, gettext("Registered player.")),
        h("button", { type: "button", onclick: () => actions.logOut() }, gettext("Log out")),
      );
  return [
    h("h2", { id: "you-h" }, gettext("You")),
    h(
      "p",
      {},
      h("strong", {}, h("bdi", {}, me.display_name)),
      me.is_guest ? h("span", { class: "badge" }, gettext("guest")) : null,
      " · ",
      gettext("rating"),
      " ",
      h("span", { class: "num" }, decimal(rating.ordinal)),
      rating.provisional
        ? h(
            "span",
            { class: "badge", title: gettext("Fewer than a dozen rated games") },
            gettext("provisional"),
          )
        : null,
      " · ",
      interpolate(ngettext("%(n)s rated game", "%(n)s rated games", rating.games), {
        n: rating.games,
      }),
      " · ",
      h("a", { href: `/players/${me.id}` }, gettext("profile")),
    ),
    rename,
    account,
    settingsView(me, actions),
  ];
}

const CHAT_SHOWN = [
  ["all", gettext("everything")],
  ["phrases", gettext("the phrases only")],
  ["off", gettext("nothing")],
];
const CHALLENGERS = [
  ["everyone", gettext("anyone")],
  ["friends", gettext("my friends")],
  ["nobody", gettext("nobody")],
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
    h("legend", {}, gettext("Settings")),
    choice("chat", gettext("At a table, show the chat's"), CHAT_SHOWN),
    choice("challenges_from", gettext("Who may challenge me"), CHALLENGERS),
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
      " ",
      gettext("Appear offline to my friends"),
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
    h("label", { for: `${prefix}-username` }, gettext("Username")),
    h("input", {
      id: `${prefix}-username`,
      name: "username",
      required: true,
      autocomplete: "username",
    }),
    h("label", { for: `${prefix}-password` }, gettext("Password")),
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
    h("h2", { id: "new-h" }, gettext("Play against the CPU or friends")),
    h(
      "p",
      { class: "muted" },
      gettext("A private table: add CPU seats or send the invite link, then start."),
    ),
    h(
      "div",
      { class: "row" },
      h("label", { for: "preset" }, gettext("Variant")),
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
      h("label", { for: "max-players" }, gettext("Seats")),
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
      h("button", { type: "submit", class: "primary", testid: "new-table" }, gettext("New table")),
    ),
    h(
      "details",
      {
        class: "house-rules",
        testid: "house-rules",
        open: state.rulesOpen || null,
        ontoggle: (event) => actions.openRules(event.target.open),
      },
      h("summary", {}, gettext("House rules")),
      h("p", { class: "muted small" }, gettext("The variant fills these; change any of them.")),
      h(
        "fieldset",
        { class: "rules" },
        h("legend", { class: "sr-only" }, gettext("House rules")),
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
    h("h2", { id: "join-h" }, gettext("Join a friend's table")),
    h(
      "div",
      { class: "row" },
      h("label", { for: "invite" }, gettext("Invite link")),
      h("input", {
        id: "invite",
        name: "invite",
        required: true,
        dir: "ltr",
        translate: "no",
        placeholder: "http://…/join/…",
      }),
      h("button", { type: "submit" }, gettext("Join")),
    ),
  );
}

// Ranked queue ---------------------------------------------------------------------------

const TICKET_STATUS = {
  searching: pgettext("ranked search", "searching"),
  matched: pgettext("ranked search", "matched"),
  cancelled: pgettext("ranked search", "cancelled"),
  expired: pgettext("ranked search", "expired"),
};

/** How long the ticket has searched, "1:05": the page's clock rewrites it each second. */
export function waited(ticket) {
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(ticket.created_at)) / 1000));
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  return interpolate(gettext("Searching… waited %(time)s"), { time });
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
    h("h2", { id: "ranked-h" }, gettext("Ranked")),
    h(
      "p",
      { class: "muted" },
      gettext("Matched with players of your rating; the result moves it."),
    ),
    h(
      "fieldset",
      { class: "sizes", disabled: searching },
      h("legend", {}, gettext("Table sizes")),
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
          " ",
          interpolate(ngettext("%(n)s player", "%(n)s players", n), { n }),
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
            gettext("Cancel"),
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
            gettext("Find a ranked game"),
          ),
          ticket
            ? h(
                "span",
                { testid: "queue-status", class: "status", "data-status": ticket.status },
                interpolate(gettext("Last search: %(status)s"), {
                  status: TICKET_STATUS[ticket.status] ?? ticket.status,
                }),
              )
            : null,
        ),
  );
}
