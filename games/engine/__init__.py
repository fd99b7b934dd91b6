"""The rules of Yaniv (docs/rules.md) as pure Python: no Django, no I/O, no randomness of
its own (every shuffle goes through the ``Rng`` passed in).

- ``cards``: codes, values, ranks, decks.
- ``rules``: ``Rules``, the house rules of a game (§9) and the variants (§12: presets as
  data, two decks, hand sizes, direction, values, final turns, the wild rank, sevens, the spy
  queen...), as typed options that carry their behaviour (``from_dict`` raises
  ``InvalidRules``); where a new variant goes. No clock.
- ``groups``: ``group_error`` (is this laid order a single, set or run?) and ``takeable``.
- ``state``: ``GameState``, ``start_game``, ``apply`` with ``Play`` / ``CallYaniv``; the
  events each call returns (``EngineEvent``, with the variants' ``forced_draw`` and
  ``spied``); ``to_dict`` / ``from_dict`` for storage.
- ``scoring``: round scores, exact-score drops, elimination, next starter, standings.
- ``view``: ``view(state, seat)``, all that a seat (or a stranger) may see (the wild card,
  and to a spy alone what the spy queen showed it).
- ``moves``: ``legal_groups``, ``legal_draws``, ``legal_moves``.
- ``record``: ``record_from_events``, ``replay`` (``yaniv-record/1``).
- ``cpu``: the CPU players, ``cpu_action`` / ``choose_action`` at a ``Level`` (``easy``,
  ``medium``, ``hard``, ``expert``), each deciding from a seat's ``view`` alone (its ``View``:
  that view digested once per decision); ``expert`` searches sampled deals with ``apply``.
- ``errors``: ``Reason`` (every refusal's stable text), ``IllegalMove``, ``InvalidRules``.
"""
