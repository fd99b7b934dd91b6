// Provably fair deals (`yaniv-fair/1`, docs/fairness.md), in the browser: the game seed from
// the seats' seed pairs, the HMAC-SHA256 streams and what each decides, and a record's check,
// computing exactly what games/engine/fair.py computes, with WebCrypto (`crypto.subtle`, so a
// secure context: https or localhost). Every function that hashes is async. Bytes are
// Uint8Arrays; hex is lowercase.

export const VERSION = "yaniv-fair/1";
export const STARTER_LABEL = "round|1|starter";
export const SEATS_LABEL = "seats";
const CLIENT_SEED_MAX = 64;
const TWO_32 = 2 ** 32;
const WORDS_PER_BLOCK = 8;

// The canonical deck (docs/fairness.md §4): each copy's suits S H D C, ranks A..K; then the
// jokers X1, X2, ...
const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
const NATURALS = [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
const PLACE = new Map(NATURALS.map((code, index) => [code, index]));

// Bytes -----------------------------------------------------------------------------------

/** A string's bytes, each character one byte; anything beyond ASCII throws a RangeError
 *  (as Python's `str.encode("ascii")` refuses it). */
function ascii(text) {
  const bytes = new Uint8Array(text.length);
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (code > 0x7f) throw new RangeError(`not ASCII: ${pyRepr(text)}`);
    bytes[at] = code;
  }
  return bytes;
}

function concat(...parts) {
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** Byte strings in Python's order: the first byte that differs, else the shorter first. */
function compareBytes(a, b) {
  for (let at = 0; at < Math.min(a.length, b.length); at += 1) {
    if (a[at] !== b[at]) return a[at] - b[at];
  }
  return a.length - b.length;
}

/** "00ff..." */
export function toHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// What Python's `bytes.fromhex` reads: pairs of hex digits (either case), with ASCII white
// space allowed before any pair and at the end, never inside one.
const HEX = /^[\t\n\v\f\r ]*(?:[0-9A-Fa-f]{2}[\t\n\v\f\r ]*)*$/;

/** The bytes of a hex string, as Python's `bytes.fromhex` reads it; else a TypeError (not a
 *  string) or a RangeError. */
export function fromHex(text) {
  if (typeof text !== "string") throw new TypeError("hex must be a string");
  if (!HEX.test(text)) throw new RangeError(`not hex: ${pyRepr(text)}`);
  const digits = text.replace(/[\t\n\v\f\r ]/g, "");
  return Uint8Array.from({ length: digits.length / 2 }, (_, at) =>
    Number.parseInt(digits.slice(2 * at, 2 * at + 2), 16),
  );
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** An HMAC-SHA256 key of these bytes, to sign with (a stream's seed imported once). WebCrypto
 *  refuses an empty key; HMAC pads a short key with zeros to the block, so 64 zero bytes are
 *  the same key. */
export function hmacKey(bytes) {
  const raw = bytes.length ? bytes : new Uint8Array(64);
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

async function hmac(key, message) {
  const cryptoKey = key instanceof CryptoKey ? key : await hmacKey(key);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message));
}

// 1. Seed pairs ---------------------------------------------------------------------------

/** A new client seed like a new player's first: 16 random lowercase hex characters. */
export function newClientSeed() {
  return toHex(crypto.getRandomValues(new Uint8Array(8)));
}

/** 1 to 64 printable ASCII characters, 0x21-0x7E (no space). */
export function isClientSeed(value) {
  return typeof value === "string" && value.length <= CLIENT_SEED_MAX && /^[!-~]+$/.test(value);
}

/** The lowercase hex SHA-256 of a server seed (bytes): shown before the game, checked after. */
export async function commitment(serverSeed) {
  return toHex(await sha256(serverSeed));
}

// 2. The game seed ------------------------------------------------------------------------

/** A seat's 32 bytes: `HMAC(server seed, "yaniv-fair/1|" + client seed)`. */
export function contribution(serverSeed, clientSeed) {
  return hmac(serverSeed, ascii(`${VERSION}|${clientSeed}`));
}

/** The seed of a game (32 bytes) from the `[serverSeed, clientSeed]` pair of every human seat,
 *  in any order: their contributions sorted as byte strings. */
export async function gameSeed(pairs) {
  const parts = await Promise.all(
    Array.from(pairs, ([server, client]) => contribution(server, client)),
  );
  if (!parts.length) throw new RangeError("a game seed needs at least one human seat");
  parts.sort(compareBytes);
  return sha256(concat(ascii(VERSION), ...parts));
}

// 3. Streams and draws --------------------------------------------------------------------

/** The words of one label's stream: `HMAC(game seed, label|counter)` blocks, read as
 *  big-endian unsigned 32-bit words, eight a block, running on across draws. Each block is
 *  signed when its first word is wanted (a shuffle of 108 cards signs 14). `seed`: the game
 *  seed's bytes, or its `hmacKey`. Await each draw before the next. */
export class Stream {
  #key;
  #label;
  #counter = 0;
  #block = null;
  #next = WORDS_PER_BLOCK;

  constructor(seed, label) {
    this.#key = seed;
    this.#label = ascii(`${label}|`);
  }

  /** How many blocks the stream has signed so far. */
  get blocks() {
    return this.#counter;
  }

  /** The next word, an integer in [0, 2^32). */
  async word() {
    if (this.#next === WORDS_PER_BLOCK) {
      if (!(this.#key instanceof CryptoKey)) this.#key = await hmacKey(this.#key);
      const message = concat(this.#label, ascii(String(this.#counter)));
      this.#block = new DataView((await hmac(this.#key, message)).buffer);
      this.#counter += 1;
      this.#next = 0;
    }
    const word = this.#block.getUint32(4 * this.#next, false);
    this.#next += 1;
    return word;
  }

  /** A uniform integer in [0, n), by rejection: no value more likely than another. Every
   *  number here is an integer below 2^53, so plain arithmetic is exact (no bitwise
   *  operators: they are signed 32-bit). */
  async below(n) {
    if (!Number.isSafeInteger(n) || n <= 0 || n > TWO_32) throw new RangeError(`below(${n})`);
    const limit = TWO_32 - (TWO_32 % n);
    let word = await this.word();
    while (word >= limit) word = await this.word();
    return word % n;
  }

  /** Fisher-Yates as Durstenfeld wrote it, in place; returns `items`. */
  async shuffle(items) {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

/** `stream.shuffle(items)`: `items` shuffled in place by the stream, and returned. */
export function shuffle(stream, items) {
  return stream.shuffle(items);
}

// 4. What each stream decides -------------------------------------------------------------

/** Every copy's naturals in order, then `jokers x decks` jokers `X1`, `X2`, ... */
export function canonicalDeck(decks = 1, jokers = 2) {
  if (!Number.isInteger(decks) || !Number.isInteger(jokers)) {
    throw new TypeError("decks and jokers are integers");
  }
  const naturals = Array.from({ length: Math.max(decks, 0) }, () => NATURALS).flat();
  const count = Math.max(jokers * decks, 0);
  return [...naturals, ...Array.from({ length: count }, (_, at) => `X${at + 1}`)];
}

/** A card's first place in the canonical deck (a joker `X<n>`: 52 + n); a RangeError for
 *  anything that is not a card (only ASCII digits after the X). */
function canonicalPlace(code) {
  if (typeof code !== "string") throw new RangeError(`not a card: ${pyRepr(code)}`);
  if (PLACE.has(code)) return PLACE.get(code);
  if (/^X[0-9]+$/.test(code)) return NATURALS.length + Number(code.slice(1));
  throw new RangeError(`not a card: ${pyRepr(code)}`);
}

/** The cards (a new array) by the first place of each code in the canonical deck (copies
 *  alike, kept in their order). */
export function canonicalOrder(cards) {
  const placed = Array.from(cards, (code) => [canonicalPlace(code), code]);
  return placed.sort((a, b) => a[0] - b[0]).map(([, code]) => code);
}

export const deckLabel = (round) => `round|${round}|deck`;
export const reshuffleLabel = (round, number) => `round|${round}|reshuffle|${number}`;
export const cpuEntrant = (level) => `cpu:${level}`;

/** Round `round`'s deck (1-based): the canonical deck given, shuffled (a new array); index 0
 *  is dealt first. `seed`: bytes or `hmacKey`, as for `Stream`. */
export function deal(seed, round, deck) {
  return new Stream(seed, deckLabel(round)).shuffle([...deck]);
}

/** The `number`-th reshuffle (1-based) of round `round`: the cards in canonical order, then
 *  shuffled (a new array); index 0 is the new stock's top. */
export function reshuffle(seed, round, number, cards) {
  return new Stream(seed, reshuffleLabel(round, number)).shuffle(canonicalOrder(cards));
}

/** The first round's starter: a 0-based seat among `players` (CPU seats counted). */
export function starter(seed, players) {
  return new Stream(seed, STARTER_LABEL).below(players);
}

/** A ranked table's seating: the entrants (player ids, `cpu:<level>`) sorted by code point,
 *  then shuffled (a new array); item `i` sits in seat `i`. */
export function seats(seed, entrants) {
  return new Stream(seed, SEATS_LABEL).shuffle([...entrants].sort(compareCodePoints));
}

/** Strings by code point, as Python sorts them (JavaScript's own order is by UTF-16 unit,
 *  which differs past U+FFFF). */
function compareCodePoints(a, b) {
  for (let at = 0; at < a.length && at < b.length; ) {
    const x = a.codePointAt(at);
    const y = b.codePointAt(at);
    if (x !== y) return x - y;
    at += x > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

// 5. A record's check ---------------------------------------------------------------------

/** What disagrees, first: `where` names it ("seat 1 commitment", "round 2 deck"...). */
class Unfair extends Error {
  constructor(where, detail) {
    super(`${where}: ${detail}`);
    this.where = where;
    this.detail = detail;
  }
}

/** Check a record's `fairness` block against its table (one seed pair for each human seat of
 *  the record, that seat's player's), its decks, reshuffles, first starter and (a ranked
 *  record) its seating, as games/engine/fair.py's `check_record` does, check for check in the
 *  same order: `{ok: true, gameSeed: "<hex>"}` when all agree, else `{ok: false, where,
 *  detail}` naming the first thing that disagrees (`where` as Python names it: "record",
 *  "fairness", "version", "seats", "seat N server_seed", "seat N commitment", "seat N
 *  client_seed", "game_seed", "seat N", "rules", "rounds", "round R", "round 1 starter", "round
 *  R deck", "round R reshuffle K"); a malformed record too (`detail` "malformed: ..."). One
 *  difference JSON makes: JavaScript reads `3.0` as the integer 3, Python as a float, which
 *  Python's check holds malformed as `players` or a seat number. */
export async function checkRecord(record) {
  try {
    return { ok: true, gameSeed: toHex(await check(record)) };
  } catch (error) {
    if (error instanceof Unfair) return { ok: false, where: error.where, detail: error.detail };
    throw error;
  }
}

/** Whether a record's seed pairs are those the game showed when it started (the game
 *  payload's `fairness` block, `shown`): `{ok: true}`, else `{ok: false, where, detail}` at the
 *  first seat (by number) whose commitment or client seed differs, or that one of them has
 *  and the other not. A server that chose its seed after seeing the client seeds would have to
 *  show another commitment in the record than at the start. */
export function checkShown(record, shown) {
  try {
    compareShown(record, shown);
    return { ok: true };
  } catch (error) {
    if (error instanceof Unfair) return { ok: false, where: error.where, detail: error.detail };
    throw error;
  }
}

const NOT_SHOWN = "is not the one shown when the game started";

function compareShown(record, shown) {
  if (!isMapping(record)) throw new Unfair("record", "malformed: not an object");
  const fairness = get(record, "fairness");
  if (!isMapping(fairness)) throw new Unfair("fairness", "the record has no fairness block");
  const revealed = bySeat(seedSeats(fairness));
  const atStart = bySeat(seedSeats(isMapping(shown) ? shown : {}));
  const numbers = [...new Set([...revealed.keys(), ...atStart.keys()])].sort((a, b) => a - b);
  for (const number of numbers) {
    const pair = revealed.get(number);
    const seen = atStart.get(number);
    if (!seen)
      throw new Unfair(`seat ${number}`, "has a seed pair not shown when the game started");
    if (!pair)
      throw new Unfair(`seat ${number}`, "the seed pair shown when the game started is missing");
    for (const key of ["commitment", "client_seed"]) {
      if (!pyEquals(get(pair, key), get(seen, key)))
        throw new Unfair(`seat ${number} ${key}`, NOT_SHOWN);
    }
  }
}

/** A block's seed pairs by seat number. */
function bySeat(pairs) {
  const seats = new Map();
  for (const [index, pair] of pairs.entries()) {
    const number = get(pair, "seat");
    if (!Number.isInteger(number))
      throw new Unfair("seats", `malformed: item ${index} has no seat number`);
    if (seats.has(number)) throw new Unfair(`seat ${number}`, "has two seed pairs");
    seats.set(number, pair);
  }
  return seats;
}

async function check(record) {
  if (!isMapping(record)) throw new Unfair("record", "malformed: not an object");
  const fairness = get(record, "fairness");
  if (!isMapping(fairness)) throw new Unfair("fairness", "the record has no fairness block");
  const seed = await revealedSeed(fairness);
  const seated = checkTable(record, seedSeats(fairness));
  const key = await hmacKey(seed);
  const deck = deckOf(or(get(record, "rules"), {}));
  const rounds = or(get(record, "rounds"), []);
  if (!Array.isArray(rounds)) throw new Unfair("rounds", "malformed: not a list");
  for (const [index, round] of rounds.entries()) {
    if (!isMapping(round)) throw new Unfair(`round ${index + 1}`, "malformed: not an object");
  }
  if (rounds.length) {
    const first = await starter(key, seated.length);
    if (!pyEquals(get(rounds[0], "starter"), first)) {
      throw new Unfair("round 1 starter", `the seed gives seat ${first}`);
    }
  }
  for (const [index, round] of rounds.entries()) {
    const number = index + 1;
    if (!pyEquals(get(round, "deck"), await deal(key, number, deck))) {
      throw new Unfair(`round ${number} deck`, "is not the seed's shuffle");
    }
    const actions = or(get(round, "actions"), []);
    if (!Array.isArray(actions)) {
      throw new Unfair(`round ${number}`, "malformed: its actions are not a list");
    }
    const reshuffles = actions.filter(
      (entry) => isMapping(entry) && Object.hasOwn(entry, "reshuffle"),
    );
    for (const [at, entry] of reshuffles.entries()) {
      const where = `round ${number} reshuffle ${at + 1}`;
      if (!Array.isArray(entry.reshuffle))
        throw new Unfair(where, "malformed: not a list of cards");
      let stock;
      try {
        stock = await reshuffle(key, number, at + 1, entry.reshuffle);
      } catch (error) {
        if (error instanceof RangeError) throw new Unfair(where, error.message);
        throw error;
      }
      if (!pyEquals(entry.reshuffle, stock)) throw new Unfair(where, "is not the seed's shuffle");
    }
  }
  if (truthy(get(record, "ranked"))) await checkSeating(key, seated);
  return seed;
}

/** The canonical deck of a record's `rules` (`decks`, `jokers`). */
function deckOf(rules) {
  if (!isMapping(rules)) throw new Unfair("rules", "malformed: not an object");
  let decks;
  let jokers;
  try {
    decks = pyInt(get(rules, "decks", 1));
    jokers = pyInt(get(rules, "jokers", 2));
  } catch {
    throw new Unfair("rules", "malformed: decks or jokers is not an integer");
  }
  if (!(decks >= 1 && decks <= DECKS_MAX && jokers >= 0 && jokers <= DECKS_MAX)) {
    throw new Unfair("rules", `malformed: decks not 1-${DECKS_MAX} or jokers not 0-${DECKS_MAX}`);
  }
  return canonicalDeck(decks, jokers);
}

const DECKS_MAX = 8;

/** A server seed as a record reveals it: 32 bytes, 64 lowercase hex digits. */
const SEED_HEX = /^[0-9a-f]{64}$/;

/** The game seed of a `fairness` block, after checking its version, every seat's commitment
 *  against its revealed server seed, and the seed against the seats'. */
async function revealedSeed(fairness) {
  const version = get(fairness, "version");
  if (version !== VERSION) {
    throw new Unfair("version", `expected ${pyRepr(VERSION)}, got ${pyRepr(version)}`);
  }
  const pairs = [];
  for (const [index, seat] of seedSeats(fairness).entries()) {
    const where = `seat ${pyStr(get(seat, "seat", index))}`;
    const hexed = get(seat, "server_seed");
    if (typeof hexed !== "string" || !SEED_HEX.test(hexed)) {
      throw new Unfair(`${where} server_seed`, "missing or not 64 lowercase hex digits");
    }
    const server = fromHex(hexed);
    if ((await commitment(server)) !== get(seat, "commitment")) {
      throw new Unfair(`${where} commitment`, "is not the SHA-256 of the server seed");
    }
    if (!isClientSeed(get(seat, "client_seed"))) {
      throw new Unfair(`${where} client_seed`, "missing or not 1-64 printable ASCII");
    }
    pairs.push([server, seat.client_seed]);
  }
  if (!pairs.length) throw new Unfair("seats", "no human seat");
  const seed = await gameSeed(pairs);
  if (toHex(seed) !== get(fairness, "game_seed")) {
    throw new Unfair("game_seed", `the seats' seeds give ${toHex(seed)}`);
  }
  return seed;
}

/** The block's `seats`: a list of objects (missing: none). */
function seedSeats(fairness) {
  const seats = get(fairness, "seats", []);
  if (!Array.isArray(seats)) throw new Unfair("seats", "malformed: not a list");
  for (const [index, seat] of seats.entries()) {
    if (!isMapping(seat)) throw new Unfair("seats", `malformed: item ${index} is not an object`);
  }
  return seats;
}

/** The record's seats, after checking that the block holds exactly one seed pair for each
 *  human seat (`is_cpu` false), at its seat number, with its player's id. */
function checkTable(record, given) {
  const seated = get(record, "seats");
  const players = get(record, "players");
  if (!Array.isArray(seated) || !seated.every(isMapping)) {
    throw new Unfair("seats", "malformed: the record's seats are not a list of objects");
  }
  if (!Number.isInteger(players) || players !== seated.length) {
    throw new Unfair("seats", "malformed: the record's seats are not its players");
  }
  const humans = new Map();
  for (const [number, seat] of seated.entries()) {
    const isCpu = get(seat, "is_cpu");
    if (typeof isCpu !== "boolean") {
      throw new Unfair(`seat ${number}`, "malformed: is_cpu is not true or false");
    }
    if (!isCpu) humans.set(number, seat);
  }
  const pairs = bySeat(given);
  const numbers = [...new Set([...humans.keys(), ...pairs.keys()])].sort((a, b) => a - b);
  for (const number of numbers) {
    if (!humans.has(number)) {
      throw new Unfair(`seat ${number}`, "has a seed pair but is no human seat of the record");
    }
    if (!pairs.has(number))
      throw new Unfair(`seat ${number}`, "a human seat without its seed pair");
    if (!pyEquals(get(pairs.get(number), "player_id"), get(humans.get(number), "player_id"))) {
      throw new Unfair(`seat ${number}`, "the seed pair is another player's");
    }
  }
  return seated;
}

/** A seat as the seating stream names it: `cpu:<level>` or the player's id. */
function seatEntrant(seat) {
  if (truthy(get(seat, "is_cpu"))) return cpuEntrant(pyStr(get(seat, "cpu_level")));
  return pyStr(get(seat, "player_id"));
}

async function checkSeating(key, seated) {
  const entrants = seated.map(seatEntrant);
  const expected = await seats(key, entrants);
  for (const [index, sat] of entrants.entries()) {
    if (sat !== expected[index]) {
      throw new Unfair(`seat ${index}`, `the seed seats ${expected[index]} there, not ${sat}`);
    }
  }
}

// A record is JSON read by Python: what the check does with a value follows Python's rules
// (`x or default`, `==`, `str()`, `int()`), so that both check alike. --------------

function isMapping(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `mapping.get(key, fallback)`; a TypeError when it is no mapping (Python's AttributeError). */
function get(mapping, key, fallback = null) {
  if (!isMapping(mapping)) throw new TypeError(`not an object: ${pyRepr(mapping)}`);
  return Object.hasOwn(mapping, key) ? mapping[key] : fallback;
}

function truthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (isMapping(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/** `value or fallback` */
const or = (value, fallback) => (truthy(value) ? value : fallback);

/** Python's `==` on JSON values: numbers and booleans by value (`true == 1`), lists item by
 *  item, objects key by key. */
function pyEquals(a, b) {
  const scalar = (value) => typeof value === "number" || typeof value === "boolean";
  if (scalar(a) && scalar(b)) return Number(a) === Number(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, at) => pyEquals(item, b[at]));
  }
  if (isMapping(a) && isMapping(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && pyEquals(a[key], b[key]))
    );
  }
  return a === b;
}

/** `int(value)`: a number truncated, a boolean 0 or 1, a string of ASCII decimal digits. */
function pyInt(value) {
  if (typeof value === "boolean") return Number(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`int(${value})`);
    return Math.trunc(value);
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (!/^[+-]?[0-9]+(?:_[0-9]+)*$/.test(text)) throw new RangeError(`int(${pyRepr(value)})`);
    return Number(text.replaceAll("_", ""));
  }
  throw new TypeError(`int(${pyRepr(value)})`);
}

/** `str(value)` */
function pyStr(value) {
  return typeof value === "string" ? value : pyRepr(value);
}

/** `repr(value)`: Python's spelling of a JSON value (`None`, `True`, `'text'`, `[1, 'a']`). */
function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value).replace(/e([+-])(\d)$/, "e$10$2");
  if (typeof value === "string") return reprString(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  const entries = Object.entries(value).map(([key, item]) => `${reprString(key)}: ${pyRepr(item)}`);
  return `{${entries.join(", ")}}`;
}

// What Python's repr escapes: the categories it holds not printable (but the space).
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;
const ESCAPES = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function reprString(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote) out += `\\${quote}`;
    else if (ESCAPES[char]) out += ESCAPES[char];
    else if (char === " " || !NOT_PRINTABLE.test(char)) out += char;
    else if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += `\\U${code.toString(16).padStart(8, "0")}`;
  }
  return quote + out + quote;
}
