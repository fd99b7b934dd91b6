// `/`: who you are (guest name, rename, register, log in, log out), your table, a new private
// table with its house rules, joining by invite link, and the ranked queue. The store holds
// the state (store.js), the views draw it (views.js), a part at a time.

import { h } from "../../dom.js";
import { clientSeed } from "../../fair-deal.js";
import { gettext } from "../../i18n.js";
import { parseRule, RULES, rulesCatalog } from "../../rules.js";
import { createStore, mount } from "../../store.js";
import { meFeed } from "../../transport/me-feed.js";
import { api, token } from "../../transport/rest.js";
import { session } from "../../transport/session.js";
import { initialState, reduce } from "./store.js";
import {
  activeTableView,
  errorView,
  joinView,
  newTableFields,
  newTableForm,
  queueView,
  waited,
  youView,
} from "./views.js";

const INVITE = [/\/join\/([0-9a-fA-F-]{36})\/([^/\s]+)/, /^([0-9a-fA-F-]{36})\s+(\S+)$/];

export async function homePage(root, _params, app) {
  app.title("");
  const catalog = await rulesCatalog();
  const store = createStore(reduce, initialState({ me: session.me, catalog }));
  const { dispatch } = store;

  const fail = (error) => dispatch({ type: "error", message: error?.message || "" });
  /** Runs `work`, the page's error line showing why it failed. */
  const act = async (work) => {
    fail(null);
    try {
      await work();
    } catch (error) {
      fail(error);
    }
  };
  const meChanged = async () => dispatch({ type: "me", me: await session.refresh() });
  function ticketChanged(ticket) {
    if (ticket?.status === "matched" && ticket.game_id) app.navigate(`/games/${ticket.game_id}`);
    else dispatch({ type: "ticket", ticket });
  }

  const actions = {
    rename: (name) =>
      act(async () => {
        const me = await api("PATCH", "me/", { display_name: name });
        session.update({ ...store.state.me, ...me });
        await meChanged();
      }),
    register: (body) =>
      act(async () => {
        await api("POST", "auth/register/", body);
        await meChanged();
      }),
    logIn: (body) =>
      act(async () => {
        token.set((await api("POST", "auth/login/", body)).token);
        await meChanged();
      }),
    logOut: () =>
      act(async () => {
        await api("POST", "auth/logout/");
        token.clear();
        await session.ensure(); // back to playing at once, as a new guest
        await meChanged();
      }),
    setting: (key, value) =>
      act(async () => {
        await api("PATCH", "me/", { [key]: value });
        await meChanged();
      }),
    openAccount: (open) => dispatch({ type: "account-open", open }),
    openRules: (open) => dispatch({ type: "rules-open", open }),
    choosePreset: (preset) => dispatch({ type: "preset", preset }),
    setRule: (key, value) => dispatch({ type: "rule", key, value }),
    chooseSeats: (seats) => dispatch({ type: "seats", seats }),
    createTable: (data) => {
      const rules = { preset: data.get("preset") };
      for (const rule of RULES) rules[rule.key] = parseRule(rule, data.get(rule.key));
      const body = { max_players: Number(data.get("max_players")), rules };
      return act(async () => {
        await clientSeed.settle(); // a seed still owed from the last game, before the next
        app.navigate(`/games/${(await api("POST", "games/", body)).id}`);
      });
    },
    join(text) {
      const match = INVITE.map((pattern) => pattern.exec(text)).find(Boolean);
      if (!match) {
        fail(
          new Error(
            gettext("Paste the invite link (…/join/<game>/<code>), or the game id and the code."),
          ),
        );
        return;
      }
      app.navigate(`/join/${match[1]}/${encodeURIComponent(match[2])}`);
    },
    queue: (counts) =>
      act(async () => {
        await clientSeed.settle();
        ticketChanged(await api("POST", "matchmaking/tickets/", { player_counts: counts }));
      }),
    cancelQueue: () =>
      act(async () => {
        const { id } = store.state.ticket;
        await api("DELETE", `matchmaking/tickets/${id}/`);
        ticketChanged(await api("GET", `matchmaking/tickets/${id}/`));
      }),
  };

  const part = (tag, attrs, slice, view) => {
    const el = h(tag, attrs);
    mount(store, el, slice, (state) => view(state, actions));
    return el;
  };
  const newTable = newTableForm(actions);
  const formShows = (s) => [s.form.preset, s.form.values.decks, s.form.seats];
  mount(store, newTable, formShows, (state) => newTableFields(state, actions));
  const queueSlot = part(
    "div",
    { "aria-live": "polite" },
    (s) => [s.ticket, s.me.active_game],
    queueView,
  );
  root.replaceChildren(
    h("h1", { class: "sr-only" }, gettext("Yaniv")),
    part("div", { class: "error-slot" }, (s) => [s.error], errorView),
    part("div", {}, (s) => [s.me.active_game], activeTableView),
    h("div", { class: "columns" }, newTable, h("div", {}, queueSlot, joinView(actions))),
    part("section", { class: "panel", "aria-labelledby": "you-h" }, (s) => [s.me], youView),
  );

  // A match arrives on the player's socket; a poll covers a missed message.
  const unsubscribe = meFeed.subscribe((message) => {
    if (message.type === "ticket" && message.ticket) ticketChanged(message.ticket);
  });
  const poll = setInterval(async () => {
    const { ticket } = store.state;
    if (ticket?.status !== "searching") return;
    const status = queueSlot.querySelector('[data-testid="queue-status"]');
    if (status) status.textContent = waited(ticket);
    if (Math.floor(Date.now() / 1000) % 3 === 0) {
      try {
        ticketChanged(await api("GET", `matchmaking/tickets/${ticket.id}/`));
      } catch {
        // the next tick tries again
      }
    }
  }, 1000);
  return () => {
    unsubscribe();
    clearInterval(poll);
  };
}
