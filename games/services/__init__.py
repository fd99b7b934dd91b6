"""Every write to a game, one transaction per action (docs/architecture.md's house rules), in seven
modules by job:

- `lobby`: tables before they start (create, join, CPU seats, start, a matched ranked table,
  leaving a waiting table);
- `play`: a seated player's move, leaving an active game, returning after being away;
- `clock`: what keeps a game moving without its players: storing an engine result and what
  follows it (the next deadline, the pushes, the CPU's or the deadline's task), CPU turns,
  overdue turns;
- `staff`: voiding a game;
- `fair_play`: what counts as an offence in a ranked game (leaving, idling to the end), handed
  to accounts after the commit;
- `rematch`: a finished private table's rematch offer, its answers, and the new table;
- `rating`: rating a finished ranked game (and rolling back a voided one) through ratings.

Each action locks the game row (`games.locks.LockedGame`), checks `seq`, applies the action
through the engine, records its events and state, and only after the commit notifies the
sockets and schedules what follows. Nothing here replays the log: the game row holds the
current state. The modules import downwards only: lobby and play use clock.
"""
