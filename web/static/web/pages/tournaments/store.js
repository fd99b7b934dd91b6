// A tournament page's state and its reducer: the tournament, its standings as the socket keeps
// them (every row it has sent, by player, each replaced by its newest version), the
// player's own entry and the table of this tournament they are at (`table`, a game id, or
// null). Pure: no DOM, no fetch.

export function initialState({ tournament, me, table = null }) {
  return { tournament, board: {}, me, table, link: "connecting", error: "", sending: false };
}

export function reduce(state, action) {
  switch (action.type) {
    case "tournament":
      return { ...state, tournament: action.tournament, sending: false, error: "" };
    case "standings":
      return applyStandings(state, action.message);
    case "table":
      return action.table === state.table ? state : { ...state, table: action.table };
    case "link":
      return action.status === state.link ? state : { ...state, link: action.status };
    case "sending":
      return { ...state, sending: true, error: "" };
    case "error":
      return { ...state, sending: false, error: action.message };
    default:
      return state;
  }
}

/** A standings message: its first rows and the rows changed since the last one replace what
 *  the board held for those players; the status and player count are the tournament's. */
function applyStandings(state, message) {
  if (message.tournament_id !== state.tournament.id) return state;
  const board = { ...state.board };
  for (const row of [...message.rows, ...message.changed]) board[row.player.id] = row;
  const tournament = {
    ...state.tournament,
    status: message.status,
    players_count: message.players_count,
  };
  return { ...state, board, tournament };
}

/** The board's rows, by rank (then score, then name). */
export function rows(state) {
  return Object.values(state.board).sort(
    (a, b) =>
      a.rank - b.rank ||
      b.score - a.score ||
      a.player.display_name.localeCompare(b.player.display_name),
  );
}

/** The player's own score and rank: their row on the board once the socket sent it, else the
 *  tournament's `me`. Null when they have not joined. */
export function mine(state) {
  const entry = state.tournament.me;
  if (!entry?.joined) return null;
  const row = state.board[state.me?.id];
  return row ? { ...entry, score: row.score, rank: row.rank, paused: row.paused } : { ...entry };
}

/** What the countdown counts to: the start while upcoming (`upcoming` true), the end while
 *  running (null once the end has passed: the games in play are finishing). */
export function countdownTarget(tournament, now = Date.now()) {
  if (tournament.status === "upcoming") return { upcoming: true, at: tournament.starts_at };
  if (tournament.status === "running" && Date.parse(tournament.ends_at) > now) {
    return { upcoming: false, at: tournament.ends_at };
  }
  return null;
}
