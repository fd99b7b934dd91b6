// `/`: who you are (guest name, rename, register, log in, log out), your table, a new private
// table with its house rules, joining by invite link, and the ranked queue.
// `/join/<id>/<code>`: takes the seat, then opens the table.

import { api, liveSocket, session, token } from "../api.js";
import { errorLine, h, replace } from "../dom.js";
import { RULES, maxPlayers, parseRule, presetTitle, presetValues, rulesCatalog } from "../rules.js";

// Ranked tables (docs/api.md, Ranked matchmaking); a private table may seat up to 8.
const SIZES = [2, 3, 4, 5];
const TABLE_SIZES = [2, 3, 4, 5, 6, 7, 8];

export async function homePage(root, _params, app) {
  app.title("");
  const catalog = await rulesCatalog();
  const state = { me: session.me, ticket: session.me.ticket, error: "", accountOpen: false };
  const errorSlot = h("div", { class: "error-slot" });
  const youSlot = h("section", { class: "panel", "aria-labelledby": "you-h" });
  const tableSlot = h("div");
  const queueSlot = h("div", { "aria-live": "polite" });
  let socket = null;
  let poll = null;

  const fail = (error) => {
    state.error = error?.message || "";
    replace(errorSlot, errorLine(state.error));
  };
  const act = async (work) => {
    fail(null);
    try {
      await work();
    } catch (error) {
      fail(error);
    }
  };
  const meChanged = async () => {
    const me = await session.refresh();
    if (me.id !== state.me.id) state.accountOpen = false; // another player: forms closed
    state.me = me;
    state.ticket = state.me.ticket;
    drawYou();
    drawTable();
    drawQueue();
  };

  // You -------------------------------------------------------------------------------
  function drawYou() {
    const me = state.me;
    const rating = me.rating;
    const rename = h(
      "form",
      {
        class: "row",
        onsubmit: (event) => {
          event.preventDefault();
          const name = new FormData(event.target).get("display_name").trim();
          act(async () => {
            session.update({ ...state.me, ...(await api("PATCH", "me/", { display_name: name })) });
            await meChanged();
          });
        },
      },
      h("label", { for: "display-name" }, "Name"),
      h("input", { id: "display-name", name: "display_name", value: me.display_name, required: true, maxlength: 32, autocomplete: "nickname" }),
      h("button", { type: "submit" }, "Rename"),
    );
    const account = me.is_guest
      ? h(
          "details",
          { class: "accounts", open: state.accountOpen || null, ontoggle: (event) => (state.accountOpen = event.target.open) },
          h("summary", {}, "Register or log in"),
          credentialsForm("Register", "Keep this name, rating and history with a password.", "register", async (body) => {
            await api("POST", "auth/register/", body);
          }),
          credentialsForm("Log in", "Already registered? This browser becomes that player.", "login", async (body) => {
            token.set((await api("POST", "auth/login/", body)).token);
          }),
        )
      : h(
          "p",
          { class: "row" },
          h("span", {}, "Registered player."),
          h(
            "button",
            {
              type: "button",
              onclick: () =>
                act(async () => {
                  await api("POST", "auth/logout/");
                  token.clear();
                  await session.ensure(); // back to playing at once, as a new guest
                  await meChanged();
                }),
            },
            "Log out",
          ),
        );
    replace(
      youSlot,
      h("h2", { id: "you-h" }, "You"),
      h(
        "p",
        {},
        h("strong", {}, me.display_name),
        me.is_guest ? h("span", { class: "badge" }, "guest") : null,
        " · rating ",
        h("span", {}, rating.ordinal.toFixed(1)),
        rating.provisional ? h("span", { class: "badge", title: "Fewer than a dozen rated games" }, "provisional") : null,
        ` · ${rating.games} rated games · `,
        h("a", { href: `/players/${me.id}` }, "profile"),
      ),
      rename,
      account,
    );
  }

  function credentialsForm(title, hint, prefix, send) {
    return h(
      "form",
      {
        class: "credentials",
        onsubmit: (event) => {
          event.preventDefault();
          const data = new FormData(event.target);
          act(async () => {
            await send({ username: data.get("username"), password: data.get("password") });
            await meChanged();
          });
        },
      },
      h("h3", {}, title),
      h("p", { class: "muted" }, hint),
      h("label", { for: `${prefix}-username` }, "Username"),
      h("input", { id: `${prefix}-username`, name: "username", required: true, autocomplete: "username" }),
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

  // Your table, a new one, joining ----------------------------------------------------
  function drawTable() {
    const active = state.me.active_game;
    replace(
      tableSlot,
      active
        ? h(
            "section",
            { class: "panel highlight" },
            h("h2", {}, "Your table"),
            h("p", {}, "You have a seat at a table. ", h("a", { href: `/games/${active}`, class: "button" }, "Return to it")),
          )
        : null,
    );
  }

  // A new table: a preset fills the house rules, which the host may change one by one; the
  // seats go to 8 with two decks (docs/rules.md §12).
  const field = (rule) =>
    rule.options
      ? h(
          "select",
          { id: `rule-${rule.key}`, name: rule.key, onchange: rule.key === "decks" ? () => seatsFit() : null },
          rule.options.map(([value, text]) => h("option", { value }, text)),
        )
      : h("input", { id: `rule-${rule.key}`, name: rule.key, type: "number", min: rule.min, max: rule.max, required: true });
  const fields = Object.fromEntries(RULES.map((rule) => [rule.key, field(rule)]));
  const seats = h(
    "select",
    { id: "max-players", name: "max_players", testid: "max-players" },
    TABLE_SIZES.map((n) => h("option", { value: n, selected: n === 2 }, String(n))),
  );
  /** Seats past what the decks allow are offered no more (and a choice past it comes back). */
  function seatsFit() {
    const most = maxPlayers(catalog, fields.decks.value);
    for (const option of seats.options) option.disabled = Number(option.value) > most;
    if (Number(seats.value) > most) seats.value = String(most);
  }
  function presetChosen(preset) {
    const values = presetValues(catalog, preset);
    for (const rule of RULES) fields[rule.key].value = values[rule.key];
    seatsFit();
  }
  presetChosen(catalog.presets[0].preset);

  const newTable = h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "new-h",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(event.target);
        const rules = { preset: data.get("preset") };
        for (const rule of RULES) rules[rule.key] = parseRule(rule, data.get(rule.key));
        act(async () => {
          const game = await api("POST", "games/", { max_players: Number(data.get("max_players")), rules });
          app.navigate(`/games/${game.id}`);
        });
      },
    },
    h("h2", { id: "new-h" }, "Play against the CPU or friends"),
    h("p", { class: "muted" }, "A private table: add CPU seats or send the invite link, then start."),
    h(
      "div",
      { class: "row" },
      h("label", { for: "preset" }, "Variant"),
      h(
        "select",
        { id: "preset", name: "preset", testid: "preset", onchange: (event) => presetChosen(event.target.value) },
        catalog.presets.map(({ preset }, i) => h("option", { value: preset, selected: i === 0 }, presetTitle(preset))),
      ),
      h("label", { for: "max-players" }, "Seats"),
      seats,
      h("button", { type: "submit", class: "primary", testid: "new-table" }, "New table"),
    ),
    h(
      "details",
      { class: "house-rules", testid: "house-rules" },
      h("summary", {}, "House rules"),
      h("p", { class: "muted small" }, "The variant fills these (docs/rules.md §9 and §12); change any of them."),
      h(
        "fieldset",
        { class: "rules" },
        h("legend", { class: "sr-only" }, "House rules"),
        RULES.map((rule) => h("div", { class: "field" }, h("label", { for: `rule-${rule.key}` }, rule.label), fields[rule.key])),
      ),
    ),
  );

  const join = h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "join-h",
      onsubmit: (event) => {
        event.preventDefault();
        const text = new FormData(event.target).get("invite").trim();
        const match = /\/join\/([0-9a-fA-F-]{36})\/([^/\s]+)/.exec(text) || /^([0-9a-fA-F-]{36})\s+(\S+)$/.exec(text);
        if (!match) {
          fail(new Error("Paste the invite link (…/join/<game>/<code>), or the game id and the code."));
          return;
        }
        app.navigate(`/join/${match[1]}/${encodeURIComponent(match[2])}`);
      },
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

  // Ranked queue ----------------------------------------------------------------------
  const waited = () => {
    const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(state.ticket.created_at)) / 1000));
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  };

  function ticketChanged(ticket) {
    state.ticket = ticket;
    if (ticket?.status === "matched" && ticket.game_id) {
      app.navigate(`/games/${ticket.game_id}`);
      return;
    }
    drawQueue();
  }

  function drawQueue() {
    const ticket = state.ticket;
    const searching = ticket?.status === "searching";
    const form = h(
      "form",
      {
        class: "panel",
        "aria-labelledby": "ranked-h",
        onsubmit: (event) => {
          event.preventDefault();
          const counts = new FormData(event.target).getAll("player_counts").map(Number);
          act(async () => ticketChanged(await api("POST", "matchmaking/tickets/", { player_counts: counts })));
        },
      },
      h("h2", { id: "ranked-h" }, "Ranked"),
      h("p", { class: "muted" }, "Matched with players of your rating; the result moves it."),
      h(
        "fieldset",
        { class: "sizes", disabled: searching },
        h("legend", {}, "Table sizes"),
        SIZES.map((n) =>
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "player_counts", value: n, checked: ticket ? ticket.player_counts.includes(n) : true }), ` ${n} players`),
        ),
      ),
      searching
        ? h(
            "p",
            { class: "row" },
            h("span", { testid: "queue-status", class: "status", "data-status": "searching" }, `Searching… waited ${waited()}`),
            h(
              "button",
              {
                type: "button",
                testid: "cancel-queue",
                "data-key": "cancel-queue",
                onclick: () =>
                  act(async () => {
                    await api("DELETE", `matchmaking/tickets/${ticket.id}/`);
                    ticketChanged(await api("GET", `matchmaking/tickets/${ticket.id}/`));
                  }),
              },
              "Cancel",
            ),
          )
        : h(
            "p",
            { class: "row" },
            h("button", { type: "submit", class: "primary", testid: "queue-ranked", "data-key": "queue-ranked", disabled: !!state.me.active_game }, "Find a ranked game"),
            ticket ? h("span", { testid: "queue-status", class: "status", "data-status": ticket.status }, `Last search: ${ticket.status}`) : null,
          ),
    );
    replace(queueSlot, form);
  }

  drawYou();
  drawTable();
  drawQueue();
  replace(
    root,
    h("h1", { class: "sr-only" }, "Yaniv"),
    errorSlot,
    tableSlot,
    h("div", { class: "columns" }, newTable, h("div", {}, queueSlot, join)),
    youSlot,
  );

  // A match arrives on the player's socket; a poll covers a missed message.
  socket = liveSocket("me/", {
    onMessage: (message) => {
      if (message.type === "ticket" && message.ticket) ticketChanged(message.ticket);
    },
  });
  poll = setInterval(async () => {
    if (state.ticket?.status !== "searching") return;
    const status = queueSlot.querySelector('[data-testid="queue-status"]');
    if (status) status.textContent = `Searching… waited ${waited()}`;
    if (Math.floor(Date.now() / 1000) % 3 === 0) {
      try {
        ticketChanged(await api("GET", `matchmaking/tickets/${state.ticket.id}/`));
      } catch {
        // the next tick tries again
      }
    }
  }, 1000);
  return () => {
    socket.close();
    clearInterval(poll);
  };
}

export async function joinPage(root, [gameId, code], app) {
  app.title("Joining");
  root.append(h("h1", {}, "Joining the table…"));
  try {
    await api("POST", `games/${gameId}/join/`, { invite_code: code });
  } catch (error) {
    const active = session.me.active_game;
    root.append(
      errorLine(error.message),
      active && error.code === "in_game"
        ? h("p", {}, h("a", { href: `/games/${active}` }, "Go to the table you are at"))
        : h("p", {}, h("a", { href: "/" }, "Back to the start")),
    );
    return null;
  }
  app.navigate(`/games/${gameId}`, { replace: true });
  return null;
}
