// A game as it changes (docs/api.md, Realtime): the game's websocket as store actions. Each
// connection asks for the events after the seq last seen (`?after=`, docs/api.md, Staying in
// sync), so a reconnect misses nothing; a gap in `seq` all the same is read back from REST.

import { allPages, api } from "./rest.js";
import { liveSocket } from "./socket.js";

/** Dispatches `{type: "link", status}` as the socket comes and goes and `{type: "message",
 *  message}` for each game message: on (re)connecting, those of the events after `seen()`,
 *  then the live ones. An event more than one `seq` past `seen()` (a message lost) is a gap: the events it skipped come from the event list as `{type:
 *  "missed", events}`, and the game is refetched as `{type: "game", game}`. The socket's other
 *  messages (`chat`, `chat_deleted`) go to `other`, its link's changes to `link` too. */
export function gameFeed(gameId, { seen, dispatch, other = () => {}, link = () => {} }) {
  /** The events after `after` up to `through`: what came since is the socket's to bring. */
  async function fill(after, through) {
    try {
      const [events, game] = await Promise.all([
        allPages(`games/${gameId}/events/?after=${after}&limit=500`),
        api("GET", `games/${gameId}/`),
      ]);
      dispatch({ type: "missed", events: events.filter((event) => event.seq <= through) });
      dispatch({ type: "game", game });
    } catch {
      // the socket's next message or reconnect brings the game
    }
  }

  return liveSocket(`games/${gameId}/`, {
    query: () => ({ after: seen() }),
    onStatus: (status) => {
      dispatch({ type: "link", status });
      link(status);
    },
    onMessage: (message) => {
      if (message.type !== "game") {
        other(message);
        return;
      }
      const known = seen();
      dispatch({ type: "message", message });
      const { event, game } = message;
      // The message's own event is logged already; a message on connecting brings none. (The
      // events resent on connecting each come with the game as it is now: their own seq counts.)
      const at = event ? event.seq : game.seq;
      if (at > known + 1) fill(known, event ? at - 1 : at);
    },
  });
}
