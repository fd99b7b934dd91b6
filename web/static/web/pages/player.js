// `/players/<id>`: rating, the current season's live rank, a badge per season played (its
// tier), the chart of the rating history with the seasons' starts, and the match history with
// each game's place and rating change (each game's `rating_before` and `rating_after`), a page
// at a time. A bot stands outside seasons: its profile has no season rank, badge or mark. The
// profile and the chart are drawn once; the match history is a store of the pages read.

import { errorLine, h, replace, scrolling } from "../dom.js";
import { formatDate, formatNumber, gettext, interpolate, ngettext, pgettext } from "../i18n.js";
import { blockPlayer } from "../social/blocks.js";
import { sendChallenge } from "../social/challenges.js";
import { mayChallenge, readRelations, relationButtons } from "../social/friends.js";
import { createStore, mount } from "../store.js";
import { allPages, api } from "../transport/rest.js";
import { session } from "../transport/session.js";
import { ordinal } from "../views/card-table.js";
import { playerName } from "../views/player-name.js";
import { ratingChart } from "../views/rating-chart.js";
import { seasonBadges, seasonStanding } from "../views/season-badges.js";
import { decimal } from "../views/text.js";

export async function playerPage(root, [playerId], app) {
  const [player, history, seasons] = await Promise.all([
    api("GET", `players/${playerId}/`),
    allPages(`players/${playerId}/rating-history/?limit=200`),
    allPages(`players/${playerId}/seasons/?limit=100`),
  ]);
  app.title(player.display_name);
  const rating = player.rating;
  const store = createStore(reduce, { games: [], next: null, count: null });
  const readGames = async (path) => store.dispatch({ type: "page", page: await api("GET", path) });
  const list = h("tbody");
  const more = h("p", { class: "row" });
  mount(
    store,
    list,
    (state) => [state.games],
    (state) => state.games.map(gameRow),
  );
  mount(
    store,
    more,
    (state) => [state.next, state.count],
    (state) => moreView(state, readGames),
  );

  replace(
    root,
    h(
      "h1",
      {},
      playerName(player),
      player.is_guest ? h("span", { class: "badge" }, gettext("guest")) : null,
    ),
    player.bot_description
      ? h("p", { class: "bot-description", testid: "bot-description" }, player.bot_description)
      : null,
    await socialActions(player),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, gettext("Rating")),
      h(
        "dd",
        { testid: "rating" },
        decimal(rating.ordinal, 2),
        rating.provisional
          ? h(
              "span",
              {
                class: "badge",
                title: gettext("Sigma is still high: fewer than about a dozen rated games"),
              },
              pgettext("rating", "provisional"),
            )
          : null,
      ),
      h("dt", {}, gettext("mu / sigma")),
      h(
        "dd",
        {},
        interpolate(gettext("%(mu)s / %(sigma)s"), {
          mu: decimal(rating.mu, 2),
          sigma: decimal(rating.sigma, 2),
        }),
      ),
      h("dt", {}, gettext("Rated games")),
      h("dd", {}, formatNumber(rating.games)),
      player.is_bot
        ? null
        : [
            h("dt", {}, gettext("This season")),
            h("dd", { testid: "season-rank" }, currentSeason(seasons)),
          ],
    ),
    seasonBadges(seasons),
    h("h2", {}, gettext("Rating history")),
    ratingChart(history, {
      seasons: Object.fromEntries(seasons.map((row) => [row.season.number, row.season])),
      marked: !player.is_bot,
    }),
    h("h2", {}, gettext("Match history")),
    scrolling(
      h(
        "table",
        { class: "grid", testid: "match-history" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            [
              gettext("Ended"),
              gettext("Table"),
              gettext("Place"),
              gettext("Rating"),
              gettext("Players"),
              "",
            ].map((t) => h("th", { scope: "col" }, t)),
          ),
        ),
        list,
      ),
    ),
    more,
  );
  await readGames(`players/${playerId}/games/?limit=20`);
  return null;
}

const TABLE_SIZES = [2, 3, 4, 5];

/** Another player's profile: Add friend (or the request's state), Block or Unblock, and a
 *  challenge to a table of 2-5; the server's refusal (`blocked`, `not_allowed`, `in_game`...)
 *  shows below them. Nothing on the player's own profile. */
async function socialActions(player) {
  const me = session.me;
  if (!me || me.id === player.id) return null;
  const el = h("section", { class: "profile-actions", "aria-label": gettext("You and them") });
  let relations;
  try {
    relations = await readRelations();
  } catch {
    return null; // the profile without the buttons
  }
  let error = "";
  const seats = h(
    "select",
    { id: "challenge-seats", testid: "challenge-seats", "data-key": "challenge-seats" },
    TABLE_SIZES.map((n) => h("option", { value: n }, formatNumber(n))),
  );
  const draw = () => {
    const state = { me, ...relations };
    replace(
      el,
      h(
        "div",
        { class: "row" },
        relationButtons(state, player, actions, { challenge: false }),
        mayChallenge(state, player)
          ? h(
              "span",
              { class: "row challenge-form" },
              h("label", { for: "challenge-seats" }, gettext("Challenge to a table of")),
              seats,
              h(
                "button",
                {
                  type: "button",
                  class: "primary",
                  testid: "challenge-player",
                  "data-key": "challenge-player",
                  onclick: () => actions.challenge(player),
                },
                gettext("Challenge"),
              ),
            )
          : null,
      ),
      errorLine(error),
    );
  };
  const act = async (work) => {
    error = "";
    try {
      await work();
      relations = await readRelations();
    } catch (failed) {
      error = failed.message;
    }
    draw();
  };
  const actions = {
    befriend: (other) => act(() => api("POST", "me/friends/", { player_id: other.id })),
    block: (other) => act(() => blockPlayer(other)),
    unblock: (other) => act(() => api("DELETE", `me/blocks/${other.id}/`)),
    challenge: (other) => act(() => sendChallenge(other.id, Number(seats.value))),
  };
  draw();
  return el;
}

/** The current season's live standing, from the player's row of it (if they played in it). */
function currentSeason(seasons) {
  const row = seasons.find((r) => r.season.status === "current");
  if (!row) return h("span", { class: "muted" }, gettext("No rated game this season yet"));
  return seasonStanding(row);
}

/** A page of the match history read: its games after those shown, and where the next is. */
export function reduce(state, action) {
  if (action.type !== "page") return state;
  const { results, next, count } = action.page;
  return { games: [...state.games, ...results], next, count };
}

function gameRow(game) {
  const delta = game.rating_after && game.rating_after.ordinal - game.rating_before.ordinal;
  // Each seat's player (a bot's with its badge), else its name (`"CPU (hard)"`).
  const others = game.seat_names.map((name, seat) => [
    seat ? ", " : "",
    game.players?.[seat] ? playerName(game.players[seat]) : h("bdi", {}, name),
  ]);
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, formatDate(game.finished_at)),
    h("td", {}, tableKind(game)),
    h("td", {}, ordinal(game.place)),
    h(
      "td",
      {},
      delta === null
        ? "–"
        : h(
            "span",
            { class: `delta ${delta >= 0 ? "up" : "down"}` },
            decimal(delta, 2, { sign: true }),
          ),
    ),
    h("td", {}, others),
    h("td", {}, h("a", { href: `/replay/${game.id}` }, gettext("replay"))),
  );
}

/** The match history's Table column: a bots' ladder game (`pool` "bots"), a ranked game of
 *  people, or a private table. */
function tableKind(game) {
  if (game.pool === "bots") return pgettext("kind of table", "bot ladder");
  return game.ranked ? pgettext("kind of table", "ranked") : pgettext("kind of table", "private");
}

function moreView({ next, count }, readGames) {
  if (count === null) return null;
  return [
    next
      ? h(
          "button",
          { type: "button", "data-key": "more-games", onclick: () => readGames(next) },
          gettext("More games"),
        )
      : null,
    h(
      "span",
      { class: "muted" },
      interpolate(ngettext("%(n)s finished game", "%(n)s finished games", count), { n: count }),
    ),
  ];
}
