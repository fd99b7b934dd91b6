// The game page drawn from its state: `gameView(state, actions)` is the whole page, each part
// a function of the state; `actions` are the page's answers to clicks (page.js).

import { cardName, layGroup, sortHand } from "../../cards.js";
import { errorLine, h } from "../../dom.js";
import { fill, gettext, interpolate, ngettext, pgettext } from "../../i18n.js";
import { presetTitle, ruleLabel, ruleText } from "../../rules.js";
import {
  card,
  cards,
  cardsBelow,
  cpuLevelName,
  roundResult,
  seatLabel,
  seatName,
  standings,
  wildBlock,
} from "../../views/card-table.js";
import { fairSeat, fairVerdict } from "../../views/fair-deal.js";
import { mySeat, myTurn, selectedCopies, totalsBefore } from "./store.js";

const STATUS = {
  waiting: gettext("Waiting for players"),
  active: gettext("In play"),
  finished: gettext("Finished"),
  aborted: gettext("Aborted"),
};
const LINK = { open: gettext("live"), closed: gettext("not updating") };

function tableTitle(game, watching) {
  if (watching) return gettext("Watching a table");
  if (game.tournament_id) {
    return game.rated ? gettext("Tournament table") : gettext("Tournament table (unrated)");
  }
  return game.ranked ? gettext("Ranked table") : gettext("Private table");
}

/** "Finished · round 3 · ": the table's state, its round once dealt. */
function statusLine(game) {
  const status = STATUS[game.status] ?? game.status;
  if (!game.round) return `${status} · `;
  return `${status} · ${interpolate(gettext("round %(round)s"), { round: game.round })} · `;
}

export function gameView(state, actions) {
  const { game } = state;
  const watching = game.you === null;
  return h(
    "div",
    { testid: "table", "data-seq": game.seq, "data-status": game.status, "data-round": game.round },
    h(
      "header",
      { class: "table-head" },
      h("h1", {}, tableTitle(game, watching)),
      h(
        "p",
        { class: "muted" },
        statusLine(game),
        h("span", { class: `link ${state.link}` }, LINK[state.link] ?? gettext("connecting…")),
      ),
    ),
    errorLine(state.error),
    turnView(state),
    seatsView(state),
    game.status === "waiting" ? lobbyView(state, actions) : null,
    game.status === "active" ? middleView(state, actions) : null,
    handView(state, actions),
    spiedView(state),
    logView(state),
    game.status === "finished" && game.standings ? standings(game, state.deltas) : null,
    game.status === "finished"
      ? h(
          "p",
          { class: "row" },
          h("a", { href: `/replay/${game.id}`, class: "button" }, gettext("Replay this game")),
          h("a", { href: "/", class: "button" }, gettext("Play again")),
        )
      : null,
    game.last_round
      ? roundResult(game.last_round, game.seats, totalsBefore(state, game.last_round.round))
      : null,
    leaveView(state, actions),
    fairView(state),
    rulesView(game.rules),
  );
}

/** The fair deal (docs/fairness.md): each human seat's commitment and client seed, shown from
 *  the start; once the game has ended, the check of its record in this browser. A section, not
 *  a <details>: the table is drawn anew on every move, which would close it. */
function fairView(state) {
  const { game, fair, nextSeed } = state;
  if (!game.fairness) return null;
  return h(
    "section",
    {
      class: "panel fair-deal",
      testid: "fair-deal",
      "data-version": game.fairness.version,
      "aria-labelledby": "fair-h",
    },
    h("h2", { id: "fair-h" }, gettext("Fair deal")),
    fairVerdict(fair) ??
      h(
        "p",
        { class: "muted small" },
        gettext(
          "Each commitment locks a secret server seed before the client seed it meets was chosen; the seeds are revealed and every deck checked here when the game ends.",
        ),
      ),
    h(
      "ul",
      { class: "fair-seats", testid: "fair-seats" },
      game.fairness.seats.map((entry) => fairSeat(game.seats[entry.seat], entry)),
    ),
    nextSeed
      ? h(
          "p",
          { class: "muted small" },
          gettext("Your client seed for the next game, set by this browser:"),
          " ",
          h("code", { testid: "fair-next-seed", "data-value": nextSeed }, nextSeed),
        )
      : null,
  );
}

function seatView(game, seat) {
  const me = seat.seat === mySeat(game);
  const turn = game.status === "active" && game.turn?.seat === seat.seat;
  const badges = [
    me && h("span", { class: "badge you" }, pgettext("badge: your seat", "you")),
    seat.is_cpu && h("span", { class: "badge" }, gettext("CPU")),
    seat.away && h("span", { class: "badge warn" }, gettext("away")),
    seat.left && h("span", { class: "badge warn" }, pgettext("left the table", "left")),
    seat.eliminated && h("span", { class: "badge out" }, pgettext("eliminated", "out")),
  ];
  return h(
    "li",
    {
      class: `seat${turn ? " turn" : ""}${me ? " mine" : ""}`,
      testid: `seat-${seat.seat}`,
      "data-seat": seat.seat,
    },
    h("div", { class: "seat-name" }, seatLabel(seat, { link: true }), badges),
    game.status === "waiting"
      ? null
      : h(
          "div",
          { class: "seat-stats" },
          h(
            "span",
            {},
            interpolate(ngettext("%(n)s card", "%(n)s cards", seat.hand_count), {
              n: seat.hand_count,
            }),
          ),
          h(
            "span",
            {},
            interpolate(ngettext("%(n)s point", "%(n)s points", seat.score), { n: seat.score }),
          ),
          seat.place ? h("span", {}, interpolate(gettext("place %(n)s"), { n: seat.place })) : null,
        ),
    seat.known?.length
      ? h(
          "div",
          { class: "known" },
          h("span", { class: "muted" }, gettext("holds")),
          " ",
          cards(seat.known),
        )
      : null,
  );
}

function seatsView({ game }) {
  const open = [];
  for (let n = game.seats.length; n < game.max_players; n += 1) {
    open.push(
      h("li", { class: "seat open" }, h("div", { class: "seat-name muted" }, gettext("open seat"))),
    );
  }
  return h(
    "ul",
    { class: "seats", "aria-label": gettext("Seats") },
    game.seats.map((seat) => seatView(game, seat)),
    open,
  );
}

function lobbyView(state, actions) {
  const { game } = state;
  if (game.invite_code === null) {
    const waiting = game.you
      ? gettext("Waiting for the host to start the game.")
      : gettext("This table has not started.");
    return h("section", { class: "panel" }, h("p", {}, waiting));
  }
  const link = `${location.origin}/join/${game.id}/${game.invite_code}`;
  const full = game.seats.length >= game.max_players;
  return h(
    "section",
    { class: "panel", "aria-labelledby": "lobby-h" },
    h("h2", { id: "lobby-h" }, gettext("Your table")),
    h("p", {}, gettext("Send this link to friends: it opens the table and takes a seat.")),
    h(
      "p",
      { class: "row invite" },
      h(
        "a",
        { href: link, testid: "invite-link", class: "invite-link", dir: "ltr", translate: "no" },
        link,
      ),
      h(
        "button",
        { type: "button", "data-key": "copy", onclick: (event) => copyLink(event.target, link) },
        gettext("Copy link"),
      ),
    ),
    h(
      "p",
      { class: "muted" },
      gettext("Or the invite code"),
      " ",
      h("code", { class: "code", translate: "no" }, game.invite_code),
    ),
    h(
      "p",
      { class: "row" },
      h("label", { for: "cpu-level" }, gettext("CPU level")),
      h(
        "select",
        {
          id: "cpu-level",
          testid: "cpu-level",
          "data-key": "cpu-level",
          onchange: (event) => actions.chooseCpuLevel(event.target.value),
        },
        state.cpuLevels.map((level) =>
          h("option", { value: level, selected: level === state.cpuLevel }, cpuLevelName(level)),
        ),
      ),
      h(
        "button",
        {
          type: "button",
          testid: "add-cpu",
          "data-key": "add-cpu",
          disabled: full || state.busy,
          onclick: () => actions.addCpu(),
        },
        gettext("Add a CPU player"),
      ),
      h(
        "button",
        {
          type: "button",
          class: "primary",
          testid: "start-game",
          "data-key": "start-game",
          disabled: game.seats.length < 2 || state.busy,
          onclick: () => actions.start(),
        },
        gettext("Start the game"),
      ),
    ),
  );
}

/** The button says how it went: a copy leaves no trace in the state. */
async function copyLink(button, link) {
  try {
    await navigator.clipboard.writeText(link);
    button.textContent = gettext("Copied");
  } catch {
    button.textContent = gettext("Select the link to copy it");
  }
}

function turnView({ game }) {
  if (game.status !== "active" || !game.turn) return null;
  const mine = myTurn(game);
  const who = mine
    ? gettext("Your turn")
    : fill(gettext("%(name)s's turn"), {
        name: h("bdi", {}, seatName(game.seats[game.turn.seat])),
      });
  const called = game.caller !== null && game.caller !== undefined;
  return h(
    "p",
    {
      class: `turn${mine ? " mine" : ""}`,
      testid: "turn",
      "data-seat": game.turn.seat,
      "data-mine": String(mine),
      role: "status",
    },
    h("strong", {}, who),
    called
      ? h(
          "span",
          { class: "final-turns" },
          " · ",
          fill(gettext("%(name)s called Yaniv: final turns"), {
            name: h("bdi", {}, seatName(game.seats[game.caller])),
          }),
        )
      : null,
    game.turn.deadline
      ? h(
          "span",
          { class: "countdown", "data-deadline": game.turn.deadline },
          remaining(game.turn.deadline),
        )
      : null,
  );
}

/** ` · 12 s left`: the page's clock rewrites it each second (page.js). */
export function remaining(deadline) {
  const seconds = Math.max(0, Math.ceil((Date.parse(deadline) - Date.now()) / 1000));
  return ` · ${interpolate(gettext("%(seconds)s s left"), { seconds })}`;
}

function middleView(state, actions) {
  const { game } = state;
  const armed = myTurn(game) && !state.busy && state.selected.length > 0;
  const { discard } = game;
  const seated = game.you !== null;
  const back = h("span", { class: "back", "aria-hidden": "true" });
  return h(
    "section",
    { class: "middle", "aria-label": gettext("Stock and discards") },
    h(
      "div",
      { class: "pile-block" },
      h("h2", { class: "label" }, gettext("Stock")),
      seated
        ? h(
            "button",
            {
              type: "button",
              class: "stock",
              testid: "draw-stock",
              "data-key": "draw-stock",
              disabled: !armed,
              onclick: () => actions.play("stock"),
            },
            back,
            h(
              "span",
              {},
              interpolate(gettext("Draw from the stock (%(n)s left)"), { n: game.stock_count }),
            ),
          )
        : h(
            "div",
            { class: "stock" },
            back,
            h(
              "span",
              {},
              interpolate(ngettext("%(n)s card", "%(n)s cards", game.stock_count), {
                n: game.stock_count,
              }),
            ),
          ),
    ),
    h(
      "div",
      { class: "pile-block" },
      h(
        "h2",
        { class: "label" },
        discard.seat === null
          ? gettext("Face-up card")
          : fill(gettext("Last discard (%(name)s)"), {
              name: h("bdi", {}, seatName(game.seats[discard.seat])),
            }),
      ),
      h(
        "div",
        {
          class: "cards discard",
          testid: "discard",
          role: "group",
          "aria-label": gettext("Last discarded group; its marked ends can be taken"),
        },
        discard.cards.map((code, i) => {
          // `takeable` names codes: with two decks a middle card may share an end's code.
          const anyOf = game.rules.draw_from === "any_of_last";
          const end = i === 0 || i === discard.cards.length - 1;
          const takeable = discard.takeable.includes(code) && (anyOf || end);
          if (!seated || !takeable) return card(code, { takeable });
          return card(code, {
            takeable,
            key: `take-${code}`,
            label: interpolate(gettext("%(card)s, take it"), { card: cardName(code) }),
            disabled: !armed,
            onclick: () => actions.play(code),
          });
        }),
      ),
      game.pile.length ? h("p", { class: "muted small" }, cardsBelow(game.pile.length)) : null,
    ),
    game.wild ? wildBlock(game.wild) : null,
  );
}

/** What the spy queen showed this player this round (rules §12): for them alone. */
function spiedView({ game }) {
  const spied = game.you?.spied;
  if (!spied || game.status !== "active") return null;
  return h(
    "section",
    { class: "panel spied", testid: "spied", "aria-labelledby": "spied-h" },
    h("h2", { id: "spied-h" }, gettext("You spied (queen of diamonds)")),
    h(
      "p",
      { class: "muted small" },
      gettext(
        "What each hand held when you played the queen, less what it has discarded since; only you see this.",
      ),
    ),
    h(
      "ul",
      { class: "spied-hands" },
      Object.entries(spied).map(([seat, codes]) =>
        h(
          "li",
          { "data-seat": seat },
          h("span", { class: "seat-name" }, seatLabel(game.seats[Number(seat)])),
          " ",
          codes.length
            ? cards(codes)
            : h("span", { class: "muted" }, gettext("none of those cards left")),
        ),
      ),
    ),
  );
}

/** The latest events in words; another seat's draws from the stock show no card. */
function logView({ game, log }) {
  const lines = log.map((event) => [event, describeEvent(event, game)]).filter(([, text]) => text);
  if (!lines.length || game.status === "waiting") return null;
  return h(
    "section",
    { class: "panel log", "aria-labelledby": "log-h" },
    h("h2", { id: "log-h" }, gettext("Latest")),
    h(
      "ol",
      { class: "log-lines", testid: "log" },
      lines.map(([event, text]) =>
        h("li", { "data-type": event.type, "data-seq": event.seq }, text),
      ),
    ),
  );
}

function handView(state, actions) {
  const { game, selected } = state;
  if (!game.you || game.status !== "active") return null;
  const hand = sortHand(game.you.hand);
  const mine = myTurn(game) && !state.busy;
  const hint = selected.length
    ? interpolate(gettext("Discarding %(cards)s: now draw from the stock or take a marked card."), {
        cards: named(layGroup(selected, game.wild)),
      })
    : mine
      ? gettext(
          "Select cards to discard (a single card, a set, or a run of 3+ in one suit), then draw.",
        )
      : gettext("Wait for your turn; you may pick your cards already.");
  return h(
    "section",
    { class: "panel hand-panel", "aria-labelledby": "hand-h" },
    h(
      "h2",
      { id: "hand-h" },
      gettext("Your hand"),
      " ",
      h(
        "span",
        { class: "muted", testid: "hand-total" },
        interpolate(gettext("total %(n)s"), { n: game.you.hand_total }),
      ),
    ),
    h(
      "div",
      {
        class: "cards hand",
        testid: "hand",
        role: "group",
        "aria-label": gettext("Your hand: select the cards to discard"),
      },
      hand.map((code, i) => {
        const copy = hand.slice(0, i).filter((c) => c === code).length;
        return card(code, {
          onclick: () => actions.toggle(code, copy),
          pressed: copy < selectedCopies(selected, code),
          key: `hand-${code}-${copy}`,
        });
      }),
    ),
    h("p", { class: "muted small" }, hint),
    h(
      "p",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "yaniv primary",
          testid: "call-yaniv",
          "data-key": "call-yaniv",
          disabled: !(mine && game.you.can_call_yaniv),
          onclick: () => actions.callYaniv(),
        },
        gettext("Yaniv!"),
      ),
      selected.length
        ? h(
            "button",
            { type: "button", "data-key": "clear", onclick: () => actions.clear() },
            gettext("Clear selection"),
          )
        : null,
    ),
  );
}

function leaveView({ game }, actions) {
  if (!game.you || game.status !== "active" || game.seats[game.you.seat].left) return null;
  return h(
    "p",
    {},
    h(
      "button",
      { type: "button", class: "quiet", onclick: () => actions.leave() },
      gettext("Leave the table"),
    ),
  );
}

function rulesView(rules) {
  const entries = Object.entries(rules || {}).filter(([key]) => key !== "preset");
  const preset = rules?.preset ?? "standard";
  return h(
    "details",
    { class: "rules-summary", testid: "table-rules", "data-preset": preset },
    h(
      "summary",
      {},
      interpolate(gettext("House rules of this table: %(variant)s"), {
        variant: presetTitle(preset),
      }),
    ),
    h(
      "dl",
      {},
      entries.map(([key, value]) => [
        h("dt", {}, ruleLabel(key)),
        h("dd", { "data-rule": key }, ruleText(key, value)),
      ]),
    ),
  );
}

/** Cards named in a list ("ace of spades, two of spades"). */
const named = (codes) => codes.map(cardName).join(", ");

/** One event as a line of the log (null: not worth a line). */
function describeEvent(event, game) {
  const you = event.seat === game.you?.seat;
  const name = h("bdi", {}, seatName(game.seats[event.seat]));
  switch (event.type) {
    case "round_started":
      return event.wild
        ? fill(gettext("Round %(round)s dealt; the wild card is the %(card)s."), {
            round: event.round,
            card: cardName(event.wild),
          })
        : fill(gettext("Round %(round)s dealt."), { round: event.round });
    case "played": {
      const values = { name, cards: named(event.cards) };
      if (event.draw !== "stock") {
        values.card = cardName(event.draw);
        return you
          ? fill(gettext("You discarded %(cards)s and took the %(card)s."), values)
          : fill(gettext("%(name)s discarded %(cards)s and took the %(card)s."), values);
      }
      if (event.drawn) {
        values.card = cardName(event.drawn);
        return you
          ? fill(gettext("You discarded %(cards)s and drew the %(card)s."), values)
          : fill(gettext("%(name)s discarded %(cards)s and drew the %(card)s."), values);
      }
      return you
        ? fill(gettext("You discarded %(cards)s and drew from the stock."), values)
        : fill(gettext("%(name)s discarded %(cards)s and drew from the stock."), values);
    }
    case "forced_draw":
      if (event.drawn) {
        return fill(gettext("You drew the %(card)s: a seven was played."), {
          card: cardName(event.drawn),
        });
      }
      return you
        ? gettext("You drew a card: a seven was played.")
        : fill(gettext("%(name)s drew a card: a seven was played."), { name });
    case "spied":
      return gettext("You saw the other hands (queen of diamonds).");
    case "reshuffled":
      return gettext("The discards were shuffled into a new stock.");
    case "yaniv_called":
      if (game.rules.final_turns) {
        return you
          ? gettext("You called Yaniv: everyone else plays once more.")
          : fill(gettext("%(name)s called Yaniv: everyone else plays once more."), {
              name,
            });
      }
      return you ? gettext("You called Yaniv.") : fill(gettext("%(name)s called Yaniv."), { name });
    case "round_ended":
      return event.outcome === "yaniv"
        ? fill(gettext("Round %(round)s ended: Yaniv."), { round: event.round })
        : fill(gettext("Round %(round)s ended: Assaf."), { round: event.round });
    default:
      return null;
  }
}
