// `/tournaments`: the running, upcoming and finished tournaments and the form that creates
// one; `/tournaments/<id>`: one tournament, its countdown, join and pause, the player's entry,
// and the standings live from `ws /ws/v1/tournaments/{id}/`. When the player's own socket
// (`/ws/v1/me/`) says they are seated, the table opens (tournament-seats.js, on every page); a
// table of this tournament the player is already at when the page opens opens too, unless this
// tab has shown it (they came from it): then the page links to it.

import { errorLine, h } from "../../dom.js";
import { direction, gettext } from "../../i18n.js";
import { createStore, mount } from "../../store.js";
import { tables } from "../../tournament-seats.js";
import { api } from "../../transport/rest.js";
import { session } from "../../transport/session.js";
import { liveSocket } from "../../transport/socket.js";
import { initialState, reduce } from "./store.js";
import {
  createView,
  entryView,
  headView,
  listSection,
  remaining,
  SECTIONS,
  standingsView,
} from "./views.js";

export async function tournamentsPage(root, _params, app) {
  app.title(gettext("Tournaments"));
  const lists = await Promise.all(
    SECTIONS.map(([status]) => api("GET", `tournaments/?status=${status}&limit=50`)),
  );
  const form = h("div", {});
  const create = async (body) => {
    try {
      const made = await api("POST", "tournaments/", body);
      app.navigate(`/tournaments/${made.id}`);
    } catch (error) {
      form.replaceChildren(createView(session.me, create, error.message));
    }
  };
  form.replaceChildren(createView(session.me, create, ""));
  root.replaceChildren(
    h("h1", {}, gettext("Tournaments")),
    h(
      "p",
      { class: "muted" },
      gettext(
        "Arena tournaments: join before or during one, and you are seated at a new table as soon as your last one ends, for as long as it runs. Points by place; two first places in a row put you on fire (points doubled).",
      ),
    ),
    ...SECTIONS.map(([status, title, empty], i) =>
      listSection(status, title, empty, lists[i].results),
    ),
    form,
  );
  return null;
}

export async function tournamentPage(root, [tournamentId], app) {
  let tournament;
  let table;
  try {
    [tournament, table] = await Promise.all([
      api("GET", `tournaments/${tournamentId}/`),
      tableHere(session.me?.active_game, tournamentId).catch(() => null),
    ]);
  } catch (error) {
    app.title(gettext("Tournament"));
    root.append(
      h("h1", {}, gettext("Tournament")),
      errorLine(error.message),
      h("p", {}, h("a", { href: "/tournaments" }, gettext("All tournaments"))),
    );
    return null;
  }
  if (table && !tables.wasShown(table)) {
    app.navigate(`/games/${table}`, { replace: true });
    return null;
  }
  app.title(tournament.name);
  const store = createStore(reduce, initialState({ tournament, me: session.me, table }));
  const { dispatch } = store;

  async function reread() {
    try {
      dispatch({
        type: "tournament",
        tournament: await api("GET", `tournaments/${tournamentId}/`),
      });
    } catch (error) {
      dispatch({ type: "error", message: error.message });
    }
  }
  async function send(path, body) {
    dispatch({ type: "sending" });
    try {
      await api("POST", `tournaments/${tournamentId}/${path}`, body);
      await reread();
    } catch (error) {
      dispatch({ type: "error", message: error.message });
    }
  }
  const actions = {
    typed: { password: "" },
    join: (password) => send("join/", password ? { password } : {}),
    pause: () => send("pause/", {}),
  };

  const part = (tag, attrs, slice, view) => {
    const el = h(tag, attrs);
    mount(store, el, slice, view);
    return el;
  };
  root.replaceChildren(
    // The arrow points back: left in a left-to-right page, right in a right-to-left one.
    h(
      "p",
      {},
      h(
        "a",
        { href: "/tournaments" },
        direction === "rtl" ? "→ " : "← ",
        gettext("All tournaments"),
      ),
    ),
    part(
      "div",
      {},
      (s) => [s.tournament.status, s.tournament.ends_at, s.tournament.players_count, s.link],
      headView,
    ),
    part(
      "div",
      {},
      (s) => [s.tournament, s.board, s.error, s.sending, s.table],
      (s) => entryView(s, actions),
    ),
    h("h2", {}, gettext("Standings")),
    part("div", {}, (s) => [s.board], standingsView),
  );

  const standings = liveSocket(`tournaments/${tournamentId}/`, {
    onStatus: (status) => dispatch({ type: "link", status }),
    onMessage: (message) => {
      if (message.type !== "standings") return;
      const { status, ends_at: endsAt } = store.state.tournament;
      dispatch({ type: "standings", message });
      // The player's row changed (their game scored?): is the table they are at still on?
      const { table } = store.state;
      if (table && message.changed.some((row) => row.player.id === session.me?.id)) {
        tableHere(table, tournamentId).then(
          (now) => dispatch({ type: "table", table: now }),
          () => {}, // the link stays until the next change
        );
      }
      // Started, over, or ended early by staff: the countdown, the entry's rank and buttons.
      if (message.status !== status || Date.parse(message.ends_at) !== Date.parse(endsAt)) {
        reread();
      }
    },
  });
  // The countdown runs on between messages: only its text changes.
  const clock = setInterval(() => {
    for (const el of root.querySelectorAll(".tournament-countdown")) {
      el.textContent = remaining(el.dataset.until);
    }
  }, 1000);
  return () => {
    standings.close();
    clearInterval(clock);
  };
}

/** `gameId` when it is a table of this tournament still in play (the player's `active_game`),
 *  else null. */
async function tableHere(gameId, tournamentId) {
  if (!gameId) return null;
  const game = await api("GET", `games/${gameId}/`);
  const playing = game.status === "active" || game.status === "waiting";
  return playing && game.tournament_id === tournamentId ? gameId : null;
}
