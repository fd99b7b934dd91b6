// The friends page drawn from its state, a part at a time (page.js mounts each where it goes);
// `actions` are the page's answers to the forms and buttons.

import { errorLine, h } from "../../dom.js";
import { fill, formatDate, gettext, interpolate } from "../../i18n.js";
import { personButton as button, presenceView, relationButtons } from "../../social/friends.js";
import { playerName } from "../../views/player-name.js";
import { decimal } from "../../views/text.js";
import { sortedFriends } from "./store.js";

const nameLink = (player) => playerName(player, { link: true, attrs: { class: "name" } });

export const errorView = (state) => errorLine(state.error);

export function guestView({ me }) {
  if (!me.is_guest) {
    return me.appear_offline
      ? h(
          "p",
          { class: "panel highlight", testid: "appear-offline" },
          fill(gettext("You appear offline to your friends, whatever you do (%(settings)s)."), {
            settings: h("a", { href: "/#settings" }, gettext("settings")),
          }),
        )
      : null;
  }
  return h(
    "p",
    { class: "panel highlight", testid: "friends-guest" },
    fill(
      gettext(
        "Friends, requests and challenges are for registered players: %(register)s (your name, rating and history stay). You may block players already.",
      ),
      { register: h("a", { href: "/" }, gettext("register on the start page")) },
    ),
  );
}

export function friendsView(state, actions) {
  const { friends, loaded } = state;
  return [
    h(
      "h2",
      { id: "friends-h" },
      loaded ? interpolate(gettext("Friends (%(n)s)"), { n: friends.length }) : gettext("Friends"),
    ),
    friends.length
      ? h(
          "ul",
          { class: "people", testid: "friends-list" },
          sortedFriends(friends).map((row) =>
            h(
              "li",
              { testid: "friend", "data-player": row.player.id, "data-presence": row.presence },
              presenceView(row),
              nameLink(row.player),
              h(
                "span",
                { class: "actions" },
                button("challenge-player", row.player, gettext("Challenge"), () =>
                  actions.challenge(row.player),
                ),
                button("remove-friend", row.player, gettext("Remove"), () =>
                  actions.unfriend(row.player),
                ),
              ),
            ),
          ),
        )
      : h(
          "p",
          { class: "muted", testid: "friends-list" },
          loaded
            ? gettext("No friends yet: find players below, or add one from their profile.")
            : "…",
        ),
  ];
}

export function requestsView(state, actions) {
  const incoming = state.requests.filter((row) => row.direction === "incoming");
  const outgoing = state.requests.filter((row) => row.direction === "outgoing");
  if (!incoming.length && !outgoing.length) return null;
  const row = (request, ...buttons) =>
    h(
      "li",
      {
        testid: "friend-request",
        "data-player": request.player.id,
        "data-direction": request.direction,
      },
      nameLink(request.player),
      h("span", { class: "muted small" }, formatDate(request.created_at)),
      h("span", { class: "actions" }, buttons),
    );
  return h(
    "section",
    { class: "panel", "aria-labelledby": "requests-h", testid: "friend-requests" },
    h("h2", { id: "requests-h" }, gettext("Requests")),
    incoming.length
      ? [
          h("h3", {}, gettext("Asking to be your friend")),
          h(
            "ul",
            { class: "people" },
            incoming.map((request) =>
              row(
                request,
                button(
                  "accept-request",
                  request.player,
                  gettext("Accept"),
                  () => actions.befriend(request.player),
                  true,
                ),
                button("decline-request", request.player, gettext("Decline"), () =>
                  actions.unfriend(request.player),
                ),
              ),
            ),
          ),
        ]
      : null,
    outgoing.length
      ? [
          h("h3", {}, gettext("Sent, waiting for an answer")),
          h(
            "ul",
            { class: "people" },
            outgoing.map((request) =>
              row(
                request,
                button("withdraw-request", request.player, gettext("Withdraw"), () =>
                  actions.unfriend(request.player),
                ),
              ),
            ),
          ),
        ]
      : null,
  );
}

/** The search form: drawn once (its field keeps what is typed); `resultsView` below it. */
export function searchForm(actions) {
  return h(
    "form",
    {
      class: "row",
      role: "search",
      onsubmit: (event) => {
        event.preventDefault();
        actions.search(new FormData(event.target).get("search").trim());
      },
    },
    h("label", { for: "player-search" }, gettext("Name")),
    h("input", {
      id: "player-search",
      name: "search",
      testid: "player-search",
      type: "search",
      minlength: 2,
      maxlength: 32,
      required: true,
      autocomplete: "off",
      placeholder: gettext("at least 2 letters"),
    }),
    h("button", { type: "submit", testid: "search-submit" }, gettext("Search")),
  );
}

export function resultsView(state, actions) {
  if (state.results === null) return null;
  if (!state.results.length) {
    return h(
      "p",
      { class: "muted", testid: "search-results" },
      fill(gettext("No registered player's name holds “%(query)s”."), {
        query: h("bdi", {}, state.query),
      }),
    );
  }
  return h(
    "ul",
    { class: "people", testid: "search-results" },
    state.results.map((player) =>
      h(
        "li",
        { testid: "search-result", "data-player": player.id },
        nameLink(player),
        h(
          "span",
          { class: "muted small" },
          interpolate(gettext("rating %(rating)s"), {
            rating: decimal(player.rating.ordinal, 1),
          }),
        ),
        h("span", { class: "actions" }, relationButtons(state, player, actions)),
      ),
    ),
  );
}

export function blocksView(state, actions) {
  return [
    h("h2", { id: "blocks-h" }, gettext("Blocked")),
    h(
      "p",
      { class: "muted small" },
      gettext(
        "Neither of you sees the other's presence or chat, nor can ask or challenge the other; they are not told.",
      ),
    ),
    state.blocks.length
      ? h(
          "ul",
          { class: "people", testid: "blocked-list" },
          state.blocks.map((row) =>
            h(
              "li",
              { testid: "blocked", "data-player": row.player.id },
              nameLink(row.player),
              h(
                "span",
                { class: "muted small" },
                interpolate(gettext("since %(when)s"), { when: formatDate(row.since) }),
              ),
              h(
                "span",
                { class: "actions" },
                button("unblock-player", row.player, gettext("Unblock"), () =>
                  actions.unblock(row.player),
                ),
              ),
            ),
          ),
        )
      : h("p", { class: "muted", testid: "blocked-list" }, gettext("You block nobody.")),
  ];
}
