// The REST half of the public API (docs/api.md), and nothing else: JSON under /api/v1/ with a
// bearer token kept in localStorage, and the API's error format as an ApiError.

import { gettext, interpolate, language } from "../i18n.js";

const TOKEN_KEY = "yaniv.token";

export class ApiError extends Error {
  constructor(status, body) {
    super(
      body?.detail ||
        interpolate(gettext("The server answered %(status)s."), { status: String(status) }),
    );
    this.status = status;
    this.code = body?.code || "error";
    this.body = body || {};
  }
}

export const token = {
  get: () => localStorage.getItem(TOKEN_KEY),
  set: (value) => localStorage.setItem(TOKEN_KEY, value),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** `api("POST", "games/", {max_players: 3})`: the answer's JSON, or an ApiError holding the
 *  server's `code` and `detail`. `path` may also be a list's full `next` URL. */
export async function api(method, path, body) {
  const url = path.startsWith("http") ? new URL(path) : new URL(`/api/v1/${path}`, location.href);
  // The server's details (errors, texts) come back in the page's language.
  const headers = { Accept: "application/json", "Accept-Language": language };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const bearer = token.get();
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  let response;
  try {
    response = await fetch(url.pathname + url.search, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { detail: gettext("The server cannot be reached."), code: "network" });
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** Every item of a paginated list, following `next` (at most `limit` items). */
export async function allPages(path, limit = 1000) {
  const items = [];
  let page = await api("GET", path);
  items.push(...page.results);
  while (page.next && items.length < limit) {
    page = await api("GET", page.next);
    items.push(...page.results);
  }
  return items;
}
