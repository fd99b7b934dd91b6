// The friends page's state and its reducer: the player's friends (with their presence), open
// requests both ways, the players they block, the search and its results, and the page's
// error. The me socket's `presence`, `friend` and `friend_request` messages change it live.
// Pure: no DOM, no fetch.

import { withPresence } from "../../social/friends.js";

export function initialState({ me }) {
  return {
    me,
    friends: [],
    requests: [],
    blocks: [],
    loaded: false,
    query: "",
    results: null, // the last search's players, or null before one
    error: "",
  };
}

export function reduce(state, action) {
  switch (action.type) {
    case "relations": {
      const { friends, requests, blocks } = action;
      return { ...state, friends, requests, blocks, loaded: true };
    }
    case "presence": {
      const friends = state.friends.map((row) => withPresence(row, action.message));
      return friends.every((row, i) => row === state.friends[i]) ? state : { ...state, friends };
    }
    case "friend": {
      // A player we asked accepted: their row, and the request gone.
      const { friend } = action;
      const others = state.friends.filter((row) => row.player.id !== friend.player.id);
      const requests = state.requests.filter((row) => row.player.id !== friend.player.id);
      return { ...state, friends: [friend, ...others], requests };
    }
    case "friend_request": {
      const { request } = action;
      const others = state.requests.filter((row) => row.player.id !== request.player.id);
      return { ...state, requests: [request, ...others] };
    }
    case "results":
      return { ...state, query: action.query, results: action.results };
    case "error":
      return { ...state, error: action.message };
    default:
      return state;
  }
}

const ORDER = { playing: 0, online: 1, offline: 2 };

/** Friends who are on first (playing, then online), then by name. */
export function sortedFriends(friends) {
  return [...friends].sort(
    (a, b) =>
      (ORDER[a.presence] ?? 2) - (ORDER[b.presence] ?? 2) ||
      a.player.display_name.localeCompare(b.player.display_name),
  );
}
