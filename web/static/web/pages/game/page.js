// `/games/<id>`: a table, seated or watching. The game comes from GET /games/<id>/ and then
// from the game's websocket (transport/game-feed.js); moves go through POST .../actions/ with
// the seq last seen. The store holds the state (store.js), the views draw it (views.js).

import { layGroup } from "../../cards.js";
import { errorLine, h, replace } from "../../dom.js";
import { clientSeed, verifyRecord } from "../../fair-deal.js";
import { gettext, interpolate } from "../../i18n.js";
import { rulesCatalog } from "../../rules.js";
import { createStore, mount } from "../../store.js";
import { gameFeed } from "../../transport/game-feed.js";
import { allPages, api } from "../../transport/rest.js";
import { session } from "../../transport/session.js";
import { chatPanel } from "./chat.js";
import { ended, initialState, RECENT, reduce } from "./store.js";
import { gameView, remaining } from "./views.js";

export async function gamePage(root, [gameId], app) {
  let game;
  try {
    game = await api("GET", `games/${gameId}/`);
  } catch (error) {
    app.title(gettext("Table"));
    root.append(
      h("h1", {}, gettext("Table")),
      errorLine(error.message),
      h("p", {}, h("a", { href: "/" }, gettext("Back to the start"))),
    );
    return null;
  }
  const [catalog, history, chat] = await Promise.all([
    rulesCatalog(),
    readHistory(gameId, game),
    chatPanel(game, session.me),
  ]);
  const store = createStore(reduce, initialState({ game, history, catalog }));
  const { dispatch } = store;

  async function send(path, body) {
    dispatch({ type: "sending" });
    try {
      dispatch({ type: "answered", game: await api("POST", `games/${gameId}/${path}`, body) });
    } catch (error) {
      const game = error.code === "stale_seq" ? error.body.game : null;
      dispatch({ type: "refused", message: error.message, game });
    }
  }

  const actions = {
    toggle: (code, copy) => dispatch({ type: "toggle", code, copy }),
    clear: () => dispatch({ type: "clear" }),
    chooseCpuLevel: (level) => dispatch({ type: "cpu-level", level }),
    addCpu: () => send("cpu/", { level: store.state.cpuLevel }),
    start: () => send("start/"),
    play(drawFrom) {
      const { game, selected } = store.state;
      if (!selected.length) {
        dispatch({ type: "error", message: gettext("Select the cards to discard first.") });
        return;
      }
      // The selection stays until the move is applied (then its cards have left the hand), so
      // that a refused group can be corrected.
      const cards = layGroup(selected, game.wild);
      send("actions/", { seq: game.seq, type: "play", cards, draw: drawFrom });
    },
    callYaniv: () => send("actions/", { seq: store.state.game.seq, type: "yaniv" }),
    leave() {
      const sure = gettext(
        "Leave for good? The CPU plays your seat to the end, and the result counts.",
      );
      if (confirm(sure)) {
        // The next seed waits for the end of the game (the server refuses it while seated).
        send("leave/").then(() => renewSeed());
      }
    },
  };

  // A tournament's game: a line back to the tournament with the player's points there, read
  // again once the game is over (its points are scored then).
  const table = h("div", {});
  const line = h("div", {});
  root.replaceChildren(
    line,
    h("div", { class: chat ? "game-layout" : null }, table, chat ? chat.el : null),
  );
  let scoredAfter = game.status;
  const showTournament = () => tournamentLine(line, game.tournament_id);
  if (game.tournament_id) {
    showTournament();
    store.subscribe((state) => {
      if (state.game.status === scoredAfter) return;
      scoredAfter = state.game.status;
      if (scoredAfter !== "active" && scoredAfter !== "waiting") showTournament();
    });
  }

  // The whole table is drawn anew on each change: `replace` keeps the keyboard's place.
  mount(
    store,
    table,
    (state) => [state],
    (state) => {
      app.title(state.game.you === null ? gettext("Watching") : gettext("Table"));
      return gameView(state, actions);
    },
  );
  // The fair deal: once the game has ended, its record checked in this browser, and (seated)
  // a fresh client seed for the next game.
  async function verify() {
    dispatch({ type: "fair", fair: { status: "checking" } });
    // Against the commitments and client seeds this page showed first, too.
    dispatch({ type: "fair", fair: await verifyRecord(gameId, null, shown) });
  }
  async function renewSeed() {
    await clientSeed.renew(gameId);
    dispatch({ type: "next-seed", seed: clientSeed.stored() });
  }
  // The seeds' commitments as this page first showed them (a block served otherwise later,
  // with the record, is not the one the players saw).
  let shown = null;
  const onEnd = (state) => {
    shown ??= state.game.fairness ?? null;
    if (!ended(state.game) || !state.game.fairness || state.fair) return;
    verify();
    if (state.game.you) renewSeed();
  };
  store.subscribe(onEnd);
  onEnd(store.state);

  const feed = gameFeed(gameId, {
    seen: () => store.state.game.seq,
    dispatch,
    other: (message) => chat?.message(message),
    link: (status) => chat?.link(status),
  });
  // The countdown runs on between messages: only its text changes.
  const clock = setInterval(() => {
    for (const el of root.querySelectorAll(".countdown")) {
      el.textContent = remaining(el.dataset.deadline);
    }
  }, 1000);
  return () => {
    feed.close();
    clearInterval(clock);
  };
}

/** "Tournament: <name> (link) · your points: 4 · rank #2", from GET /tournaments/{id}/. */
async function tournamentLine(el, tournamentId) {
  let tournament;
  try {
    tournament = await api("GET", `tournaments/${tournamentId}/`);
  } catch {
    return; // the table plays on without the line
  }
  const me = tournament.me;
  replace(
    el,
    h(
      "p",
      { class: "panel tournament-line", testid: "tournament-line" },
      gettext("Tournament:"),
      " ",
      h(
        "a",
        { href: `/tournaments/${tournament.id}`, testid: "tournament-link" },
        h("bdi", {}, tournament.name),
      ),
      me?.joined
        ? [
            " · ",
            gettext("your points there:"),
            " ",
            h("strong", { testid: "tournament-points" }, String(me.score)),
            me.rank ? ` · ${interpolate(gettext("rank #%(rank)s"), { rank: me.rank })}` : "",
          ]
        : null,
    ),
  );
}

/** The events the page shows beside the game: the last few for the log, the rating change,
 *  and, past round 1, every round's totals (for the last round's exact-score drops), which
 *  only the whole list holds when this page did not see those rounds end. */
async function readHistory(gameId, game) {
  const all = (game.last_round?.round ?? 1) > 1;
  const after = all ? -1 : Math.max(-1, game.seq - RECENT);
  try {
    return await allPages(`games/${gameId}/events/?after=${after}&limit=500`, all ? 100000 : 500);
  } catch {
    return []; // shown without the log, the rating change or the drops
  }
}
