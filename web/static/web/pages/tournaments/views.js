// The tournament pages' views: the lists, the form that creates a tournament, and one
// tournament with its countdown, its buttons, the player's entry and the live standings.
// Functions of the state (store.js) and of what the pages read.

import { errorLine, h, scrolling } from "../../dom.js";
import {
  fill,
  formatDate,
  formatNumber,
  gettext,
  interpolate,
  ngettext,
  pgettext,
} from "../../i18n.js";
import { playerName } from "../../views/player-name.js";
import { countdownTarget, mine, rows } from "./store.js";

export const SIZES = [2, 3, 4, 5];
// Each list: its status (the API's), its heading and what it says when empty.
export const SECTIONS = [
  ["running", gettext("Running"), gettext("No running tournament.")],
  ["upcoming", gettext("Upcoming"), gettext("No upcoming tournament.")],
  ["finished", gettext("Finished"), gettext("No finished tournament.")],
];
// A tournament's status as players read it (the API's value stays in `data-status`).
const STATUS = {
  upcoming: pgettext("tournament status", "upcoming"),
  running: pgettext("tournament status", "running"),
  finished: pgettext("tournament status", "finished"),
  cancelled: pgettext("tournament status", "cancelled"),
};
const statusText = (status) => STATUS[status] ?? status;
const LINK = {
  open: pgettext("live updates", "live"),
  closed: pgettext("live updates", "not updating"),
};
// The countdown line once there is nothing to count down to.
const OVER = {
  running: gettext("Time is up: the games in play finish, then the standings are final."),
  finished: gettext("It is over: these are the final standings."),
  cancelled: gettext("It was cancelled."),
};
// The list's columns; those marked are left out on a phone (the section names the status),
// where each tournament is a card: its name, then its facts on a line (app.css).
const COLUMNS = [
  [gettext("Name"), false],
  [gettext("Status"), true],
  [gettext("Starts"), false],
  [gettext("Length"), false],
  [gettext("Tables"), false],
  [gettext("Rated"), true],
  [gettext("Players"), false],
];
// The standings' columns; a phone leaves out the outright firsts (the rank counts them).
const STANDING_COLUMNS = [
  [gettext("Rank"), false],
  [gettext("Player"), false],
  [gettext("Score"), false],
  [gettext("Games"), false],
  [gettext("Firsts"), true],
];

const STARTS = { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" };
const STARTS_YEAR = { dateStyle: "medium", timeStyle: "short" };

/** The start in the browser's time zone and the page's language ("Dec 2, 2:31 AM"; with the
 *  year when not this one). */
export function startsAt(tournament) {
  const start = new Date(tournament.starts_at);
  const thisYear = start.getFullYear() === new Date().getFullYear();
  return formatDate(tournament.starts_at, thisYear ? STARTS : STARTS_YEAR);
}

/** "30 min", "2 h", "1 h 30 min". */
export function duration({ starts_at, ends_at }) {
  const minutes = Math.round((Date.parse(ends_at) - Date.parse(starts_at)) / 60000);
  const [hours, rest] = [Math.floor(minutes / 60), minutes % 60];
  if (!hours) return interpolate(gettext("%(minutes)s min"), { minutes });
  return rest
    ? interpolate(gettext("%(hours)s h %(minutes)s min"), { hours, minutes: rest })
    : interpolate(gettext("%(hours)s h"), { hours });
}

/** "1:05:09" or "4:09" until `at`, "0:00" once it has passed. */
export function remaining(at) {
  const seconds = Math.max(0, Math.ceil((Date.parse(at) - Date.now()) / 1000));
  const [hours, minutes] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60];
  const mmss = `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
  return hours ? `${hours}:${mmss.padStart(5, "0")}` : mmss;
}

/** "2p, 3p, 4p": the table sizes, short. */
const sizesText = (sizes) =>
  sizes.map((n) => interpolate(pgettext("players at a table, short", "%(n)sp"), { n })).join(", ");
const tablesOf = (sizes) =>
  interpolate(gettext("tables of %(sizes)s"), { sizes: sizesText(sizes) });
const playersText = (n) => interpolate(ngettext("%(n)s player", "%(n)s players", n), { n });
const ratedText = (rated) => (rated ? gettext("rated") : gettext("unrated"));

// The list ---------------------------------------------------------------------------------

export function listSection(status, title, empty, tournaments) {
  const heading = `tournaments-${status}-h`;
  return h(
    "section",
    { class: "panel", "aria-labelledby": heading, testid: `tournaments-${status}` },
    h("h2", { id: heading }, title),
    tournaments.length
      ? scrolling(
          h(
            "table",
            { class: "grid tournament-list" },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                COLUMNS.map(([title, wide]) =>
                  h("th", { scope: "col", class: wide ? "wide-only" : null }, title),
                ),
              ),
            ),
            h("tbody", {}, tournaments.map(listRow)),
          ),
        )
      : h("p", { class: "muted" }, empty),
  );
}

function listRow(tournament) {
  return h(
    "tr",
    { testid: "tournament-row", "data-tournament": tournament.id },
    h(
      "th",
      { scope: "row" },
      h("a", { href: `/tournaments/${tournament.id}` }, h("bdi", {}, tournament.name)),
      tournament.private ? h("span", { class: "badge" }, gettext("private")) : null,
    ),
    h("td", { class: "wide-only" }, statusText(tournament.status)),
    h("td", {}, startsAt(tournament)),
    h("td", {}, duration(tournament)),
    // A phone has no column headings: the words they give are in these cells (whole phrases,
    // one shown on a wide screen, the other on a phone).
    h(
      "td",
      {},
      h("span", { class: "wide-only" }, sizesText(tournament.table_sizes)),
      h("span", { class: "narrow-only" }, tablesOf(tournament.table_sizes)),
    ),
    h("td", { class: "wide-only" }, ratedText(tournament.rated)),
    h(
      "td",
      {},
      h("span", { class: "wide-only" }, formatNumber(tournament.players_count)),
      h("span", { class: "narrow-only" }, playersText(tournament.players_count)),
    ),
  );
}

/** `2026-12-02T10:42` in local time, for a datetime-local field. */
function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The form that creates a tournament; a guest is told why there is none. */
export function createView(me, create, error) {
  const heading = h("h2", { id: "create-h" }, gettext("Create a tournament"));
  if (me.is_guest) {
    return h(
      "section",
      { class: "panel", "aria-labelledby": "create-h" },
      heading,
      h(
        "p",
        { class: "muted", testid: "create-guest" },
        fill(
          gettext(
            "Only registered players create tournaments (anyone may join one). %(register)s and keep your rating and games.",
          ),
          { register: h("a", { href: "/" }, gettext("Register on the start page")) },
        ),
      ),
    );
  }
  const start = new Date(Date.now() + 2 * 60_000);
  const field = (label, id, attrs) =>
    h(
      "p",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: id, "data-key": id, ...attrs }),
    );
  return h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "create-h",
      testid: "create-tournament",
      onsubmit: (event) => {
        event.preventDefault();
        const data = new FormData(event.target);
        create({
          name: data.get("name").trim(),
          starts_at: new Date(data.get("starts_at")).toISOString(),
          minutes: Number(data.get("minutes")),
          table_sizes: data.getAll("table_sizes").map(Number),
          rated: data.get("rated") === "on",
          password: data.get("password"),
        });
      },
    },
    heading,
    errorLine(error),
    field(gettext("Name"), "name", { required: true, maxlength: 64, testid: "tournament-name" }),
    field(gettext("Starts (your time)"), "starts_at", {
      type: "datetime-local",
      required: true,
      value: localInput(start),
      testid: "tournament-start",
    }),
    field(gettext("Minutes"), "minutes", {
      type: "number",
      min: 5,
      max: 720,
      value: 30,
      required: true,
      testid: "tournament-minutes",
    }),
    h(
      "fieldset",
      { class: "sizes" },
      h("legend", {}, gettext("Table sizes")),
      SIZES.map((n) =>
        h(
          "label",
          { class: "check" },
          h("input", {
            type: "checkbox",
            name: "table_sizes",
            value: n,
            checked: n <= 4,
            testid: `tournament-size-${n}`,
          }),
          " ",
          interpolate(ngettext("%(n)s player", "%(n)s players", n), { n }),
        ),
      ),
    ),
    h(
      "p",
      {},
      h(
        "label",
        { class: "check" },
        h("input", { type: "checkbox", name: "rated", checked: true, testid: "tournament-rated" }),
        " ",
        gettext("Rated (the games move ratings)"),
      ),
    ),
    field(gettext("Password (optional: a private tournament)"), "password", {
      type: "password",
      autocomplete: "new-password",
      maxlength: 128,
      testid: "tournament-password",
    }),
    h(
      "p",
      { class: "row" },
      h("button", { type: "submit", class: "primary", testid: "create-submit" }, gettext("Create")),
    ),
  );
}

// One tournament ---------------------------------------------------------------------------

export function headView(state) {
  const { tournament } = state;
  const target = countdownTarget(tournament);
  return h(
    "header",
    { class: "tournament-head" },
    h("h1", { testid: "tournament-name" }, h("bdi", {}, tournament.name)),
    h(
      "p",
      { class: "muted" },
      h(
        "span",
        { class: "badge", testid: "tournament-status", "data-status": tournament.status },
        statusText(tournament.status),
      ),
      " ",
      // Its facts, each whole, a dot between them.
      [
        interpolate(gettext("Starts %(when)s"), { when: startsAt(tournament) }),
        duration(tournament),
        tablesOf(tournament.table_sizes),
        ratedText(tournament.rated),
        h("span", { testid: "players-count" }, playersText(tournament.players_count)),
        tournament.private ? gettext("private") : null,
        h(
          "span",
          { class: `link ${state.link}` },
          LINK[state.link] ?? pgettext("live updates", "connecting…"),
        ),
      ]
        .filter(Boolean)
        .flatMap((fact, i) => (i ? [" · ", fact] : [fact])),
    ),
    target
      ? h(
          "p",
          { class: "status", testid: "countdown-line" },
          fill(target.upcoming ? gettext("Starts in %(time)s") : gettext("Ends in %(time)s"), {
            time: h(
              "strong",
              { class: "tournament-countdown", testid: "countdown", "data-until": target.at },
              remaining(target.at),
            ),
          }),
        )
      : h("p", { class: "status", testid: "countdown-line" }, OVER[tournament.status] ?? ""),
  );
}

/** Join (with the password of a private tournament), pause, come back; the player's entry. */
export function entryView(state, actions) {
  const { tournament } = state;
  const entry = mine(state);
  const open = tournament.status === "upcoming" || tournament.status === "running";
  const you = entry
    ? h(
        "p",
        { testid: "my-entry" },
        entry.rank
          ? fill(
              ngettext(
                "You: %(score)s point, rank %(rank)s",
                "You: %(score)s points, rank %(rank)s",
                entry.score,
              ),
              {
                score: h("strong", { testid: "my-score" }, formatNumber(entry.score)),
                rank: h(
                  "strong",
                  { testid: "my-rank" },
                  interpolate(gettext("#%(rank)s"), { rank: entry.rank }),
                ),
              },
            )
          : fill(ngettext("You: %(score)s point", "You: %(score)s points", entry.score), {
              score: h("strong", { testid: "my-score" }, formatNumber(entry.score)),
            }),
        entry.paused
          ? h("span", { class: "badge", testid: "my-paused" }, pgettext("player status", "paused"))
          : null,
      )
    : null;
  let controls = null;
  if (open && !entry) {
    controls = h(
      "form",
      {
        class: "row",
        onsubmit: (event) => {
          event.preventDefault();
          actions.join(new FormData(event.target).get("password") ?? "");
        },
      },
      tournament.private
        ? [
            h("label", { for: "join-password" }, gettext("Password")),
            h("input", {
              id: "join-password",
              name: "password",
              type: "password",
              required: true,
              // What was typed survives a redraw (the standings redraw this part).
              value: actions.typed.password,
              oninput: (event) => {
                actions.typed.password = event.target.value;
              },
              "data-key": "join-password",
              testid: "join-password",
            }),
          ]
        : null,
      h(
        "button",
        {
          type: "submit",
          class: "primary",
          testid: "join-tournament",
          "data-key": "join",
          disabled: state.sending,
        },
        gettext("Join"),
      ),
    );
  } else if (open && entry.paused) {
    controls = h(
      "p",
      { class: "row" },
      h("span", { class: "muted" }, gettext("Paused: you are not seated until you come back.")),
      h(
        "button",
        {
          type: "button",
          class: "primary",
          testid: "join-tournament",
          "data-key": "join",
          disabled: state.sending,
          onclick: () => actions.join(""),
        },
        gettext("Come back"),
      ),
    );
  } else if (open) {
    controls = h(
      "p",
      { class: "row" },
      h(
        "span",
        { class: "muted" },
        tournament.status === "running"
          ? gettext("A table opens by itself when you are seated.")
          : gettext("Keep this page open: when it starts, a table opens by itself."),
      ),
      h(
        "button",
        {
          type: "button",
          testid: "pause-tournament",
          "data-key": "pause",
          disabled: state.sending,
          onclick: () => actions.pause(),
        },
        gettext("Pause"),
      ),
    );
  }
  // The table of this tournament the player is at, when they came here from it.
  const table = state.table
    ? h(
        "p",
        { class: "status", testid: "my-table" },
        gettext("Your table is waiting."),
        " ",
        h(
          "a",
          { href: `/games/${state.table}`, class: "button", testid: "my-table-link" },
          gettext("Return to it"),
        ),
      )
    : null;
  return h(
    "section",
    { class: "panel tournament-entry", "aria-label": gettext("Your entry") },
    errorLine(state.error),
    table,
    you,
    controls,
  );
}

export function standingsView(state) {
  const board = rows(state);
  const me = state.me?.id;
  if (!board.length) {
    return h(
      "p",
      { class: "muted", testid: "tournament-standings" },
      gettext("Nobody has joined yet."),
    );
  }
  return scrolling(
    h(
      "table",
      { class: "grid fits tournament-standings", testid: "tournament-standings" },
      h("caption", { class: "sr-only" }, gettext("Standings")),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          STANDING_COLUMNS.map(([title, wide]) =>
            h("th", { scope: "col", class: wide ? "wide-only" : null }, title),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        board.map((row) =>
          h(
            "tr",
            {
              "data-player": row.player.id,
              class: row.player.id === me ? "mine" : null,
              testid: "standing",
            },
            h("td", { testid: "standing-rank" }, formatNumber(row.rank)),
            h(
              "th",
              { scope: "row" },
              playerName(row.player, { link: true }),
              // A word, not an emoji: it reads the same without an emoji font.
              row.on_fire
                ? h(
                    "span",
                    {
                      class: "badge fire",
                      title: gettext("On fire: points doubled"),
                      testid: "on-fire",
                    },
                    gettext("on fire"),
                  )
                : null,
              row.paused
                ? h(
                    "span",
                    { class: "badge", testid: "standing-paused" },
                    pgettext("player status", "paused"),
                  )
                : null,
              row.player.id === me
                ? h("span", { class: "badge you" }, pgettext("the player's own row", "you"))
                : null,
            ),
            h("td", { testid: "standing-score" }, formatNumber(row.score)),
            h("td", { testid: "standing-games" }, formatNumber(row.games)),
            h("td", { class: "wide-only", testid: "standing-firsts" }, formatNumber(row.firsts)),
          ),
        ),
      ),
    ),
  );
}
