// The game page's state and its reducer: the game as this viewer was last shown it, the cards
// they picked, the latest events for the log, the rating changes, each round's totals (for the
// exact-score drops), and the socket's link. Pure: no DOM, no fetch.

export const LOG_LENGTH = 8;
// The first read logs the events of the last few seqs; each later one is logged as it comes.
export const RECENT = 3;

/** The page's first state: the game, the events read with it (`history`: every one, or the
 *  last few), and the CPU levels of `GET /rules/` (`catalog`). */
export function initialState({ game, history, catalog }) {
  const empty = {
    game: null,
    selected: [], // card codes, in the order they were picked (two decks: a code may repeat)
    error: "",
    busy: false,
    link: "connecting",
    deltas: null, // seat -> rating change, once the game is rated
    totals: {}, // round -> the totals after it
    cpuLevels: catalog.cpu_levels,
    cpuLevel: catalog.default_cpu_level, // the level the next CPU seat is added at
    log: [], // the latest events, as this viewer was shown them
    // The seq of the last event this page has (read or pushed, not a move's answer, which
    // brings the game without its events): a reconnect asks for those after it (`?after=`).
    heard: game.seq,
    // The fair deal's check once the game has ended (docs/fairness.md): null before it, then
    // {status: "checking"}, {status: "verified", gameSeed}, {status: "failed", where, detail}
    // or {status: "unchecked", message} (the record could not be read or checked).
    fair: null,
    nextSeed: null, // the client seed this client set for the player's next game
  };
  const recent = history.filter((event) => event.seq > game.seq - RECENT);
  return withEvents(take(empty, game), history, recent);
}

export function reduce(state, action) {
  switch (action.type) {
    case "game":
      return take(state, action.game);
    case "message": {
      const { event, game } = action.message;
      const heard = Math.max(state.heard, event ? event.seq : game.seq);
      return take(event ? withEvents({ ...state, heard }, [event]) : { ...state, heard }, game);
    }
    case "missed": {
      const heard = Math.max(state.heard, ...action.events.map((event) => event.seq));
      return withEvents({ ...state, heard }, action.events);
    }
    case "link":
      return { ...state, link: action.status };
    case "toggle":
      return { ...state, selected: toggled(state.selected, action.code, action.copy), error: "" };
    case "clear":
      return { ...state, selected: [] };
    case "cpu-level":
      return { ...state, cpuLevel: action.level };
    case "sending":
      return { ...state, busy: true, error: "" };
    case "answered":
      return { ...take(state, action.game), busy: false };
    case "refused": {
      const refused = { ...state, busy: false, error: action.message };
      return action.game ? take(refused, action.game) : refused;
    }
    case "error":
      return { ...state, error: action.message };
    case "fair":
      return { ...state, fair: action.fair };
    case "next-seed":
      return action.seed === state.nextSeed ? state : { ...state, nextSeed: action.seed };
    default:
      return state;
  }
}

/** A newer (or as new) game than the one shown replaces it. */
function take(state, game) {
  if (state.game && game.seq < state.game.seq) return state;
  const last = game.last_round;
  const totals = last ? { ...state.totals, [last.round]: last.totals } : state.totals;
  // The selection stays until the player's move is applied (their hand changes only by it
  // within a round; a new round deals a new one), so that a refused group can be corrected.
  // Not "less the codes the hand no longer holds": with two decks a code may be played while
  // its other copy stays, and that copy was never selected.
  const before = state.game?.you?.hand ?? [];
  const after = game.you?.hand ?? [];
  const kept = game.round === state.game?.round && sameCards(before, after);
  return { ...state, game, totals, selected: kept ? state.selected : [] };
}

const sameCards = (a, b) => a.length === b.length && a.every((code, i) => code === b[i]);

/** What `events` tell beyond the game: the rating changes, the totals of the rounds they end,
 *  and the lines of the log (`logged`, in the order of play). */
function withEvents(state, events, logged = events) {
  let { deltas, totals } = state;
  for (const event of events) {
    if (event.type === "rated") {
      deltas = Object.fromEntries(event.ratings.map((r) => [r.seat, r.delta]));
    } else if (event.type === "round_ended") {
      totals = { ...totals, [event.round]: event.totals };
    }
  }
  // A stable sort: events of one seq stay in the order they came.
  const log = [...state.log, ...logged].sort((a, b) => a.seq - b.seq).slice(-LOG_LENGTH);
  return { ...state, deltas, totals, log };
}

/** Copies of `code` selected: with two decks the hand may hold a code twice, and its first
 *  `n` copies in the hand's order show as selected. */
export const selectedCopies = (selected, code) => selected.filter((c) => c === code).length;

function toggled(selected, code, copy) {
  if (copy >= selectedCopies(selected, code)) return [...selected, code];
  const at = selected.lastIndexOf(code);
  return [...selected.slice(0, at), ...selected.slice(at + 1)];
}

/** Whether the game has ended (its record, and so its seeds, can be read). */
export const ended = (game) => game.status === "finished" || game.status === "aborted";

export const mySeat = (game) => game.you?.seat ?? null;

export const myTurn = (game) =>
  game.status === "active" && game.you !== null && game.turn?.seat === game.you.seat;

/** The totals before `round`, when the page knows them (for the exact-score drops). */
export function totalsBefore(state, round) {
  if (round === 1) return state.game.seats.map(() => 0);
  return state.totals[round - 1] ?? null;
}
