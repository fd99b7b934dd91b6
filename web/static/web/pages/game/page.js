// `/games/<id>`: a table, seated or watching. The game comes from GET /games/<id>/ and then
// from the game's websocket (transport/game-feed.js); moves go through POST .../actions/ with
// the seq last seen. The store holds the state (store.js), the views draw it (views.js).

import { layGroup } from "../../cards.js";
import { errorLine, h, replace } from "../../dom.js";
import { clientSeed, verifyRecord } from "../../fair-deal.js";
import { formatNumber, gettext, interpolate } from "../../i18n.js";
import { rulesCatalog } from "../../rules.js";
import { createStore, mount } from "../../store.js";
import { tables } from "../../tournament-seats.js";
import { gameFeed } from "../../transport/game-feed.js";
import { allPages, api } from "../../transport/rest.js";
import { session } from "../../transport/session.js";
import { liveSocket } from "../../transport/socket.js";
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
      // The selection stays until the move is applied (store.js, take): a refused group
      // can be corrected.
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

  // This tab has shown this table: the tournament's page links back to it rather than
  // sending the player here again (tournament-seats.js).
  tables.shown(gameId);
  const table = h("div", {});
  const line = h("div", {});
  root.replaceChildren(
    line,
    h("div", { class: chat ? "game-layout" : null }, table, chat ? chat.el : null),
  );
  // A tournament's game: a line back to the tournament with the player's points there. The
  // worker scores the game a moment after its end, so once it is over (seated) the line
  // follows the player's row on the tournament's standings socket. The next seat opens its
  // table by itself (tournament-seats.js).
  const tournament = game.tournament_id ? tournamentLine(line, game.tournament_id) : null;
  if (tournament) {
    const follow = (state) => {
      if (state.game.you !== null && over(state.game)) tournament.follow();
    };
    store.subscribe(follow);
    follow(store.state);
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
    seen: () => store.state.heard,
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
    tournament?.close();
    chat?.close();
    clearInterval(clock);
  };
}

const over = (game) => game.status !== "active" && game.status !== "waiting";

/** "Tournament: <name> (link) · your points there: 4 · rank #2" in `el`, from GET
 *  /tournaments/{id}/; `follow()` then keeps the points and rank as the tournament's
 *  standings socket sends the player's row (all rows on connect, then each change), `close()`
 *  stops that. */
function tournamentLine(el, tournamentId) {
  let tournament = null;
  let row = null; // the player's newest row from the socket, newer than `tournament.me`
  let socket = null;
  let closed = false;
  const draw = () => {
    if (!tournament) return;
    const me = row ? { joined: true, score: row.score, rank: row.rank } : tournament.me;
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
              h("strong", { testid: "tournament-points" }, formatNumber(me.score)),
              me.rank
                ? [
                    " · ",
                    h(
                      "span",
                      { testid: "tournament-rank" },
                      interpolate(gettext("rank #%(rank)s"), { rank: me.rank }),
                    ),
                  ]
                : "",
            ]
          : null,
      ),
    );
  };
  api("GET", `tournaments/${tournamentId}/`).then(
    (read) => {
      tournament = read;
      draw();
    },
    () => {}, // the table plays on without the line
  );
  return {
    follow() {
      if (socket || closed) return;
      socket = liveSocket(`tournaments/${tournamentId}/`, {
        onMessage: (message) => {
          if (message.type !== "standings") return;
          const me = session.me?.id;
          const mine = [...message.rows, ...message.changed].find((r) => r.player.id === me);
          if (!mine) return;
          row = mine;
          draw();
        },
      });
    },
    close() {
      closed = true;
      socket?.close();
    },
  };
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
