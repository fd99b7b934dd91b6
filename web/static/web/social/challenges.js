// Challenges (docs/api.md, Challenges), wherever the player is: the open ones, incoming with
// Accept and Decline, outgoing with Cancel, each with the seconds left before it expires, in a
// corner of every page (`#challenges`). They come from `GET /challenges/` and then from the me
// socket's `challenge` messages; an accepted challenge takes both players to the table.

import { h } from "../dom.js";
import { clientSeed } from "../fair-deal.js";
import { fill, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { createStore, mount } from "../store.js";
import { meFeed } from "../transport/me-feed.js";
import { api } from "../transport/rest.js";
import { session } from "../transport/session.js";
import { playerName } from "../views/player-name.js";

// How long a challenge that ended stays shown, with what became of it.
const ENDED_MS = 8000;

const store = createStore(reduce, { shown: [], errors: {} });
let app = null;

/** `shown`: the challenges in view, oldest first, each as last told; `errors`: by id, why an
 *  answer was refused. */
export function reduce(state, action) {
  switch (action.type) {
    case "challenge": {
      const { challenge } = action;
      const at = state.shown.findIndex((c) => c.id === challenge.id);
      if (at < 0 && challenge.status !== "open" && !action.keep) return state;
      const shown = [...state.shown];
      if (at < 0) shown.push(challenge);
      else shown[at] = challenge;
      return { ...state, shown };
    }
    case "list": {
      // Those still open, and those ended that are still shown.
      const open = new Map(action.challenges.map((c) => [c.id, c]));
      const kept = state.shown.filter((c) => c.status !== "open" && !open.has(c.id));
      return { ...state, shown: [...kept, ...open.values()] };
    }
    case "clear":
      return { shown: [], errors: {} };
    case "dismiss":
      return { ...state, shown: state.shown.filter((c) => c.id !== action.id) };
    case "error":
      return { ...state, errors: { ...state.errors, [action.id]: action.message } };
    default:
      return state;
  }
}

const mine = (challenge) => challenge.challenger.id === session.me?.id;

function told(challenge, { keep = false } = {}) {
  store.dispatch({ type: "challenge", challenge, keep });
  if (challenge.status === "accepted" && challenge.game_id) {
    store.dispatch({ type: "dismiss", id: challenge.id });
    if (location.pathname !== `/games/${challenge.game_id}`) {
      app.navigate(`/games/${challenge.game_id}`);
    }
  } else if (challenge.status !== "open") {
    setTimeout(() => store.dispatch({ type: "dismiss", id: challenge.id }), ENDED_MS);
  }
}

async function reread() {
  try {
    const { incoming, outgoing } = await api("GET", "challenges/");
    store.dispatch({ type: "list", challenges: [...incoming, ...outgoing] });
  } catch {
    // the socket's next message, or its next reconnect, brings them
  }
}

/** Challenge `playerId` to a table of `maxPlayers`: the challenge, shown until answered; an
 *  ApiError (`blocked`, `not_allowed`, `in_game`, ...) for the caller to show. */
export async function sendChallenge(playerId, maxPlayers = 2) {
  await clientSeed.settle();
  const challenge = await api("POST", "challenges/", {
    player_id: playerId,
    max_players: maxPlayers,
  });
  told(challenge);
  return challenge;
}

async function answer(challenge, path, method = "POST") {
  store.dispatch({ type: "error", id: challenge.id, message: "" });
  try {
    if (path === "accept/") await clientSeed.settle(); // a seed owed before the next game
    const now = await api(method, `challenges/${challenge.id}/${path}`);
    told(now ?? { ...challenge, status: "cancelled" });
  } catch (error) {
    store.dispatch({ type: "error", id: challenge.id, message: error.message });
    if (error.code === "not_open") reread();
  }
}

/** Starts the corner of challenges in `el`: call once, after the session is known. */
export function startChallenges(root, client) {
  app = client;
  mount(
    store,
    root,
    (state) => [state.shown, state.errors],
    (state) => state.shown.map((c) => challengeView(c, state.errors[c.id])),
  );
  meFeed.subscribe((message) => {
    if (message.type === "challenge" && message.challenge) told(message.challenge, { keep: true });
  });
  // On each (re)connection: what the socket may have missed.
  meFeed.onStatus((status) => {
    if (status === "open") reread();
  });
  // Another player in this browser (a log in or out): theirs. The socket reopens for them
  // too, and its "open" reads them again.
  let playerId = session.me?.id;
  session.onChange((me) => {
    if (me.id === playerId) return;
    playerId = me.id;
    store.dispatch({ type: "clear" });
  });
  setInterval(() => {
    for (const el of root.querySelectorAll("[data-expires]")) {
      el.textContent = secondsLeft(el.dataset.expires);
    }
  }, 1000);
}

function secondsLeft(expiresAt) {
  const seconds = Math.max(0, Math.ceil((Date.parse(expiresAt) - Date.now()) / 1000));
  return interpolate(ngettext("%(n)s s left", "%(n)s s left", seconds), { n: seconds });
}

const ENDED = {
  accepted: () => gettext("Accepted."),
  declined: (c) =>
    mine(c)
      ? fill(gettext("%(name)s declined."), { name: playerName(c.challenged) })
      : gettext("You declined."),
  cancelled: (c) =>
    mine(c)
      ? gettext("You cancelled it.")
      : fill(gettext("%(name)s withdrew the challenge."), { name: playerName(c.challenger) }),
  expired: () => gettext("It expired unanswered."),
};

/** The challenge in a sentence, the other player's name in it (in bold). */
function challengeText(challenge, outgoing, other) {
  const two = challenge.max_players === 2;
  const format = outgoing
    ? two
      ? gettext("You challenged %(name)s to a game of two.")
      : gettext("You challenged %(name)s to a table of %(n)s.")
    : two
      ? gettext("%(name)s challenges you to a game of two.")
      : gettext("%(name)s challenges you to a table of %(n)s.");
  return fill(format, { name: h("strong", {}, playerName(other)), n: challenge.max_players });
}

function challengeView(challenge, error) {
  const outgoing = mine(challenge);
  const other = outgoing ? challenge.challenged : challenge.challenger;
  const open = challenge.status === "open";
  const button = (testid, label, onclick, primary = false) =>
    h(
      "button",
      {
        type: "button",
        class: primary ? "primary" : null,
        testid,
        "data-key": `${testid}-${challenge.id}`,
        onclick,
      },
      label,
    );
  return h(
    "section",
    {
      class: `toast${open ? "" : " ended"}`,
      testid: "challenge",
      "data-challenge": challenge.id,
      "data-direction": outgoing ? "outgoing" : "incoming",
      "data-status": challenge.status,
      "aria-label": pgettext("a challenge (noun)", "Challenge"),
    },
    h("p", {}, challengeText(challenge, outgoing, other)),
    open
      ? h(
          "p",
          { class: "row" },
          outgoing
            ? button("cancel-challenge", gettext("Cancel"), () => answer(challenge, "", "DELETE"))
            : [
                button(
                  "accept-challenge",
                  gettext("Accept"),
                  () => answer(challenge, "accept/"),
                  true,
                ),
                button("decline-challenge", gettext("Decline"), () =>
                  answer(challenge, "decline/"),
                ),
              ],
          h(
            "span",
            {
              class: "muted small",
              testid: "challenge-expiry",
              "data-expires": challenge.expires_at,
            },
            secondsLeft(challenge.expires_at),
          ),
        )
      : h(
          "p",
          { class: "row" },
          h("span", { testid: "challenge-outcome" }, ENDED[challenge.status]?.(challenge) ?? ""),
          button("dismiss-challenge", gettext("Close"), () =>
            store.dispatch({ type: "dismiss", id: challenge.id }),
          ),
        ),
    error ? h("p", { class: "error", role: "alert", testid: "challenge-error" }, error) : null,
  );
}
