"""Signals social sends, for the apps above it to act on."""

from __future__ import annotations

from django.dispatch import Signal

# Sent (sender=Challenge) after the commit of an accepted challenge, with `challenge_id`,
# `game_id` (the private table it made) and `player_ids` (the challenger's and the challenged's).
# Matchmaking cancels their searching tickets: a ticket left searching would seat them at a
# ranked table the moment the private game ended (or, for a table still waiting, never).
challenge_accepted = Signal()
