// `/games/<id>`: a table, seated or watching. The game comes from GET /games/<id>/ and then
// from the game's websocket; moves go through POST .../actions/ with the seq last seen.

import { allPages, api, liveSocket } from "../api.js";
import { cardName, layGroup, sortHand } from "../cards.js";
import { errorLine, h, replace } from "../dom.js";
import { presetTitle, ruleLabel, ruleText } from "../rules.js";
import { card, cards, cardsBelow, roundResult, seatName, standings, wildBlock } from "../table.js";

const LOG_LENGTH = 8;

// The CPU levels of docs/api.md (`POST /games/{id}/cpu/`), weakest first.
const CPU_LEVELS = ["easy", "medium", "hard", "expert"];
const STATUS = { waiting: "Waiting for players", active: "In play", finished: "Finished", aborted: "Aborted" };

export async function tablePage(root, [gameId], app) {
  const state = {
    game: null,
    selected: [], // card codes, in the order they were picked (two decks: a code may repeat)
    error: "",
    busy: false,
    link: "connecting",
    deltas: null, // seat -> rating change, once the game is rated
    totals: new Map([[0, null]]), // round -> the totals after it (round 0: none yet)
    cpuLevel: "hard", // the level the next CPU seat is added at (POST .../cpu/ {"level"})
    log: [], // the latest events, as this viewer was shown them
  };
  let countdown = null;

  try {
    state.game = await api("GET", `games/${gameId}/`);
  } catch (error) {
    app.title("Table");
    root.append(h("h1", {}, "Table"), errorLine(error.message), h("p", {}, h("a", { href: "/" }, "Back to the start")));
    return null;
  }
  await loadRating();
  await loadTotals();
  await loadLog();

  function mySeat() {
    return state.game.you?.seat ?? null;
  }
  function myTurn() {
    const { game } = state;
    return game.status === "active" && game.you !== null && game.turn?.seat === game.you.seat;
  }

  /** A newer (or as new) game than the one shown replaces it. */
  function take(game) {
    if (state.game && game.seq < state.game.seq) return;
    state.game = game;
    if (game.last_round) state.totals.set(game.last_round.round, game.last_round.totals);
    // Keep what the hand still holds, each copy of a code once.
    const left = [...(game.you?.hand ?? [])];
    state.selected = state.selected.filter((code) => {
      const at = left.indexOf(code);
      if (at >= 0) left.splice(at, 1);
      return at >= 0;
    });
    draw();
  }

  async function refetch() {
    try {
      take(await api("GET", `games/${gameId}/`));
    } catch {
      // the socket's next message or reconnect brings it
    }
  }

  async function loadRating() {
    const { game } = state;
    if (!game.ranked || game.status !== "finished") return;
    try {
      const events = await api("GET", `games/${gameId}/events/?after=${Math.max(-1, game.seq - 1)}`);
      const rated = events.results.find((event) => event.type === "rated");
      if (rated) rememberRating(rated);
    } catch {
      // shown without the rating change
    }
  }

  /** The totals before the last round, to show its exact-score drops: from the round before
   *  it, which the event log holds when this page did not see it end. */
  async function loadTotals() {
    const last = state.game.last_round;
    if (last) state.totals.set(last.round, last.totals);
    if (!last || last.round === 1) return;
    try {
      for (const event of await allPages(`games/${gameId}/events/?limit=500`, 100000)) {
        if (event.type === "round_ended") state.totals.set(event.round, event.totals);
      }
    } catch {
      // shown without the drops
    }
  }

  function totalsBefore(round) {
    if (round === 1) return state.game.seats.map(() => 0);
    return state.totals.get(round - 1) ?? null;
  }

  /** The last few events of the game, for the log (then each one the socket brings). */
  async function loadLog() {
    try {
      const after = Math.max(-1, state.game.seq - 3);
      state.log = (await api("GET", `games/${gameId}/events/?after=${after}`)).results.slice(-LOG_LENGTH);
    } catch {
      // the log starts empty
    }
  }

  function rememberRating(event) {
    state.deltas = Object.fromEntries(event.ratings.map((r) => [r.seat, r.delta]));
  }

  function onMessage(message) {
    if (message.type !== "game") return;
    const { event, game } = message;
    if (event?.type === "rated") rememberRating(event);
    if (event) state.log = [...state.log, event].slice(-LOG_LENGTH);
    const gap = state.game && game.seq > state.game.seq + 1;
    take(game);
    if (gap) refetch(); // docs/api.md: a client that sees a gap refetches
  }

  async function send(path, body) {
    state.busy = true;
    state.error = "";
    draw();
    try {
      take(await api("POST", `games/${gameId}/${path}`, body));
    } catch (error) {
      state.error = error.message;
      if (error.code === "stale_seq" && error.body.game) take(error.body.game);
    } finally {
      state.busy = false;
      draw();
    }
  }

  function play(drawFrom) {
    if (!state.selected.length) {
      state.error = "Select the cards to discard first.";
      draw();
      return;
    }
    // The selection stays until the move is applied (then its cards have left the hand), so
    // that a refused group can be corrected.
    const group = layGroup(state.selected, state.game.wild);
    send("actions/", { seq: state.game.seq, type: "play", cards: group, draw: drawFrom });
  }

  /** Copies of `code` selected: with two decks the hand may hold a code twice, and its
   *  first `n` copies in the hand's order show as selected. */
  const selectedCopies = (code) => state.selected.filter((c) => c === code).length;

  function toggle(code, copy) {
    if (copy < selectedCopies(code)) state.selected.splice(state.selected.lastIndexOf(code), 1);
    else state.selected.push(code);
    state.error = "";
    draw();
  }

  // Drawing ---------------------------------------------------------------------------

  function seatView(seat) {
    const { game } = state;
    const me = seat.seat === mySeat();
    const turn = game.status === "active" && game.turn?.seat === seat.seat;
    const badges = [
      me && h("span", { class: "badge you" }, "you"),
      seat.is_cpu && h("span", { class: "badge" }, "CPU"),
      seat.away && h("span", { class: "badge warn" }, "away"),
      seat.left && h("span", { class: "badge warn" }, "left"),
      seat.eliminated && h("span", { class: "badge out" }, "out"),
    ];
    return h(
      "li",
      { class: `seat${turn ? " turn" : ""}${me ? " mine" : ""}`, testid: `seat-${seat.seat}`, "data-seat": seat.seat },
      h("div", { class: "seat-name" }, seat.player ? h("a", { href: `/players/${seat.player.id}` }, seatName(seat)) : seatName(seat), badges),
      game.status === "waiting"
        ? null
        : h(
            "div",
            { class: "seat-stats" },
            h("span", {}, `${seat.hand_count} cards`),
            h("span", {}, `${seat.score} points`),
            seat.place ? h("span", {}, `place ${seat.place}`) : null,
          ),
      seat.known?.length ? h("div", { class: "known" }, h("span", { class: "muted" }, "holds "), cards(seat.known)) : null,
    );
  }

  function seatsView() {
    const { game } = state;
    const open = [];
    for (let n = game.seats.length; n < game.max_players; n += 1) {
      open.push(h("li", { class: "seat open" }, h("div", { class: "seat-name muted" }, "open seat")));
    }
    return h("ul", { class: "seats", "aria-label": "Seats" }, game.seats.map(seatView), open);
  }

  function lobbyView() {
    const { game } = state;
    const host = game.invite_code !== null;
    if (!host) {
      return h("section", { class: "panel" }, h("p", {}, game.you ? "Waiting for the host to start the game." : "This table has not started."));
    }
    const link = `${location.origin}/join/${game.id}/${game.invite_code}`;
    const full = game.seats.length >= game.max_players;
    return h(
      "section",
      { class: "panel", "aria-labelledby": "lobby-h" },
      h("h2", { id: "lobby-h" }, "Your table"),
      h("p", {}, "Send this link to friends: it opens the table and takes a seat."),
      h(
        "p",
        { class: "row invite" },
        h("a", { href: link, testid: "invite-link", class: "invite-link" }, link),
        h(
          "button",
          {
            type: "button",
            "data-key": "copy",
            onclick: async (event) => {
              try {
                await navigator.clipboard.writeText(link);
                event.target.textContent = "Copied";
              } catch {
                event.target.textContent = "Select the link to copy it";
              }
            },
          },
          "Copy link",
        ),
      ),
      h("p", { class: "muted" }, `Or the invite code ${game.invite_code}.`),
      h(
        "p",
        { class: "row" },
        h("label", { for: "cpu-level" }, "CPU level"),
        h(
          "select",
          { id: "cpu-level", testid: "cpu-level", "data-key": "cpu-level", onchange: (event) => { state.cpuLevel = event.target.value; } },
          CPU_LEVELS.map((level) => h("option", { value: level, selected: level === state.cpuLevel }, level)),
        ),
        h("button", { type: "button", testid: "add-cpu", "data-key": "add-cpu", disabled: full || state.busy, onclick: () => send("cpu/", { level: state.cpuLevel }) }, "Add a CPU player"),
        h("button", { type: "button", class: "primary", testid: "start-game", "data-key": "start-game", disabled: game.seats.length < 2 || state.busy, onclick: () => send("start/") }, "Start the game"),
      ),
    );
  }

  function turnView() {
    const { game } = state;
    if (game.status !== "active" || !game.turn) return null;
    const mine = myTurn();
    const who = mine ? "Your turn" : `${seatName(game.seats[game.turn.seat])}'s turn`;
    return h(
      "p",
      { class: `turn${mine ? " mine" : ""}`, testid: "turn", "data-seat": game.turn.seat, "data-mine": String(mine), role: "status" },
      h("strong", {}, who),
      game.caller !== null && game.caller !== undefined ? h("span", { class: "final-turns" }, ` · ${seatName(game.seats[game.caller])} called Yaniv: final turns`) : null,
      game.turn.deadline ? h("span", { class: "countdown", "data-deadline": game.turn.deadline }, remaining(game.turn.deadline)) : null,
    );
  }

  function middleView() {
    const { game } = state;
    const mine = myTurn() && !state.busy;
    const armed = mine && state.selected.length > 0;
    const discard = game.discard;
    const seated = game.you !== null;
    return h(
      "section",
      { class: "middle", "aria-label": "Stock and discards" },
      h(
        "div",
        { class: "pile-block" },
        h("h2", { class: "label" }, "Stock"),
        seated
          ? h(
              "button",
              { type: "button", class: "stock", testid: "draw-stock", "data-key": "draw-stock", disabled: !armed, onclick: () => play("stock") },
              h("span", { class: "back", "aria-hidden": "true" }),
              h("span", {}, `Draw from the stock (${game.stock_count} left)`),
            )
          : h("div", { class: "stock" }, h("span", { class: "back", "aria-hidden": "true" }), h("span", {}, `${game.stock_count} cards`)),
      ),
      h(
        "div",
        { class: "pile-block" },
        h("h2", { class: "label" }, discard.seat === null ? "Face-up card" : `Last discard (${seatName(game.seats[discard.seat])})`),
        h(
          "div",
          { class: "cards discard", testid: "discard", role: "group", "aria-label": "Last discarded group; its marked ends can be taken" },
          discard.cards.map((code, i) => {
            // `takeable` names codes: with two decks a middle card may share an end's code.
            const anyOf = game.rules.draw_from === "any_of_last";
            const takeable = discard.takeable.includes(code) && (anyOf || i === 0 || i === discard.cards.length - 1);
            if (!seated || !takeable) return card(code, { takeable });
            return card(code, {
              takeable,
              key: `take-${code}`,
              label: `${cardName(code)}, take it`,
              disabled: !armed,
              onclick: () => play(code),
            });
          }),
        ),
        game.pile.length ? h("p", { class: "muted small" }, cardsBelow(game.pile.length)) : null,
      ),
      game.wild ? wildBlock(game.wild) : null,
    );
  }

  /** What the spy queen showed this player this round (rules §12): for them alone. */
  function spiedView() {
    const spied = state.game.you?.spied;
    if (!spied || state.game.status !== "active") return null;
    return h(
      "section",
      { class: "panel spied", testid: "spied", "aria-labelledby": "spied-h" },
      h("h2", { id: "spied-h" }, "You spied (queen of diamonds)"),
      h("p", { class: "muted small" }, "What each hand held when you played the queen, less what it has discarded since; only you see this."),
      h(
        "ul",
        { class: "spied-hands" },
        Object.entries(spied).map(([seat, codes]) =>
          h("li", { "data-seat": seat }, h("span", { class: "seat-name" }, seatName(state.game.seats[Number(seat)])), " ", codes.length ? cards(codes) : h("span", { class: "muted" }, "none of those cards left")),
        ),
      ),
    );
  }

  /** The latest events in words; another seat's draws from the stock show no card. */
  function logView() {
    const { game } = state;
    const lines = state.log.map((event) => [event, describeEvent(event, game)]).filter(([, text]) => text);
    if (!lines.length || game.status === "waiting") return null;
    return h(
      "section",
      { class: "panel log", "aria-labelledby": "log-h" },
      h("h2", { id: "log-h" }, "Latest"),
      h(
        "ol",
        { class: "log-lines", testid: "log" },
        lines.map(([event, text]) => h("li", { "data-type": event.type, "data-seq": event.seq }, text)),
      ),
    );
  }

  function handView() {
    const { game } = state;
    if (!game.you || game.status !== "active") return null;
    const hand = sortHand(game.you.hand);
    const mine = myTurn() && !state.busy;
    return h(
      "section",
      { class: "panel hand-panel", "aria-labelledby": "hand-h" },
      h("h2", { id: "hand-h" }, "Your hand ", h("span", { class: "muted", testid: "hand-total" }, `total ${game.you.hand_total}`)),
      h(
        "div",
        { class: "cards hand", testid: "hand", role: "group", "aria-label": "Your hand: select the cards to discard" },
        hand.map((code, i) => {
          const copy = hand.slice(0, i).filter((c) => c === code).length;
          return card(code, { onclick: () => toggle(code, copy), pressed: copy < selectedCopies(code), key: `hand-${code}-${copy}` });
        }),
      ),
      h(
        "p",
        { class: "muted small" },
        state.selected.length
          ? `Discarding ${layGroup(state.selected, game.wild).map(cardName).join(", ")}: now draw from the stock or take a marked card.`
          : mine
            ? "Select cards to discard (a single card, a set, or a run of 3+ in one suit), then draw."
            : "Wait for your turn; you may pick your cards already.",
      ),
      h(
        "p",
        { class: "row" },
        h("button", { type: "button", class: "yaniv primary", testid: "call-yaniv", "data-key": "call-yaniv", disabled: !(mine && game.you.can_call_yaniv), onclick: () => send("actions/", { seq: game.seq, type: "yaniv" }) }, "Yaniv!"),
        state.selected.length ? h("button", { type: "button", "data-key": "clear", onclick: () => { state.selected = []; draw(); } }, "Clear selection") : null,
      ),
    );
  }

  function leaveView() {
    const { game } = state;
    if (!game.you || game.status !== "active" || game.seats[game.you.seat].left) return null;
    return h(
      "p",
      {},
      h(
        "button",
        {
          type: "button",
          class: "quiet",
          onclick: () => {
            if (confirm("Leave for good? The CPU plays your seat to the end, and the result counts.")) send("leave/");
          },
        },
        "Leave the table",
      ),
    );
  }

  function draw() {
    const { game } = state;
    const watching = game.you === null;
    app.title(watching ? "Watching" : "Table");
    replace(
      root,
      h(
        "div",
        { testid: "table", "data-seq": game.seq, "data-status": game.status, "data-round": game.round },
        tableParts(watching),
      ),
    );
  }

  function tableParts(watching) {
    const { game } = state;
    return [
      h(
        "header",
        { class: "table-head" },
        h("h1", {}, watching ? "Watching a table" : game.ranked ? "Ranked table" : "Private table"),
        h(
          "p",
          { class: "muted" },
          `${STATUS[game.status]}${game.round ? ` · round ${game.round}` : ""} · `,
          h("span", { class: `link ${state.link}` }, state.link === "open" ? "live" : state.link === "closed" ? "not updating" : "connecting…"),
        ),
      ),
      errorLine(state.error),
      turnView(),
      seatsView(),
      game.status === "waiting" ? lobbyView() : game.status === "active" ? middleView() : null,
      handView(),
      spiedView(),
      logView(),
      game.status === "finished" && game.standings ? standings(game, state.deltas) : null,
      game.status === "finished" ? h("p", { class: "row" }, h("a", { href: `/replay/${game.id}`, class: "button" }, "Replay this game"), h("a", { href: "/", class: "button" }, "Play again")) : null,
      game.last_round ? roundResult(game.last_round, game.seats, totalsBefore(game.last_round.round)) : null,
      leaveView(),
      rulesView(game.rules),
    ];
  }

  function tick() {
    for (const el of root.querySelectorAll(".countdown")) el.textContent = remaining(el.dataset.deadline);
  }

  draw();
  const socket = liveSocket(`games/${gameId}/`, {
    onMessage,
    onStatus: (status) => {
      state.link = status;
      draw();
    },
  });
  countdown = setInterval(tick, 1000);
  return () => {
    socket.close();
    clearInterval(countdown);
  };
}

function remaining(deadline) {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
  return ` · ${seconds} s left`;
}

function rulesView(rules) {
  const entries = Object.entries(rules || {}).filter(([key]) => key !== "preset");
  const preset = rules?.preset ?? "standard";
  return h(
    "details",
    { class: "rules-summary", testid: "table-rules", "data-preset": preset },
    h("summary", {}, `House rules of this table: ${presetTitle(preset)}`),
    h("dl", {}, entries.map(([key, value]) => [h("dt", {}, ruleLabel(key)), h("dd", { "data-rule": key }, ruleText(key, value))])),
  );
}

/** One event as a line of the log (null: not worth a line). */
function describeEvent(event, game) {
  const who = (seat) => (seat === game.you?.seat ? "You" : seatName(game.seats[seat]));
  const named = (codes) => codes.map(cardName).join(", ");
  switch (event.type) {
    case "round_started":
      return `Round ${event.round} dealt${event.wild ? `; the wild card is the ${cardName(event.wild)}` : ""}.`;
    case "played": {
      const drew = event.draw !== "stock" ? `took the ${cardName(event.draw)}` : event.drawn ? `drew the ${cardName(event.drawn)}` : "drew from the stock";
      return `${who(event.seat)} discarded ${named(event.cards)} and ${drew}.`;
    }
    case "forced_draw":
      return event.drawn ? `You drew the ${cardName(event.drawn)}: a seven was played.` : `${who(event.seat)} drew a card: a seven was played.`;
    case "spied":
      return "You saw the other hands (queen of diamonds).";
    case "reshuffled":
      return "The discards were shuffled into a new stock.";
    case "yaniv_called":
      return game.rules.final_turns ? `${who(event.seat)} called Yaniv: everyone else plays once more.` : `${who(event.seat)} called Yaniv.`;
    case "round_ended":
      return `Round ${event.round} ended: ${event.outcome === "yaniv" ? "Yaniv" : "Assaf"}.`;
    default:
      return null;
  }
}
