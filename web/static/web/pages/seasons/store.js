// The season page's state and its reducer: the seasons (the current one first), the one
// chosen, and the page of its leaderboard read. Pure: no DOM, no fetch.

/** `seasons` as GET /seasons/ lists them (newest first), `number` the one asked for (or null:
 *  the current season), `offset` the leaderboard's, `me` the session's player. */
export function initialState({ seasons, number, offset, me }) {
  const ordered = [
    ...seasons.filter((s) => s.status === "current"),
    ...seasons.filter((s) => s.status !== "current"),
  ];
  return {
    seasons: ordered,
    number: number ?? ordered[0]?.number ?? null,
    offset,
    board: null,
    error: "",
    me,
  };
}

export function reduce(state, action) {
  switch (action.type) {
    case "pick":
      if (action.number === state.number && action.offset === state.offset) return state;
      return { ...state, number: action.number, offset: action.offset, board: null, error: "" };
    case "board":
      // An answer for a season or page no longer shown is dropped.
      if (action.number !== state.number || action.offset !== state.offset) return state;
      return { ...state, board: action.page, error: "" };
    case "error":
      return { ...state, error: action.message };
    default:
      return state;
  }
}

/** The season chosen, or undefined when none is (or the number is not a season). */
export const chosen = (state) => state.seasons.find((s) => s.number === state.number);
