// A page's store: its state, changed only by its reducer, a pure function `(state, action) =>
// state` (the same state back when nothing changed); and `mount`, which keeps a view of it drawn.

import { replace } from "./dom.js";

/** `createStore(reduce, initial)`: `state`, `dispatch(action)`, and `subscribe(listener)`,
 *  which calls `listener(state)` after each change and returns the unsubscribe. */
export function createStore(reduce, initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get state() {
      return state;
    },
    dispatch(action) {
      const next = reduce(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener(state);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Draws `view(state)` into `root` now, and again after each change of the store that changes
 *  one of the values `slice(state)` lists (so that a part of a page is drawn anew only when
 *  what it shows has changed). Returns the unsubscribe. */
export function mount(store, root, slice, view) {
  let shown = slice(store.state);
  replace(root, view(store.state));
  return store.subscribe((state) => {
    const now = slice(state);
    if (now.every((value, i) => value === shown[i])) return;
    shown = now;
    replace(root, view(state));
  });
}
