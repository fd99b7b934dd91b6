"""Signals other apps subscribe to."""

from __future__ import annotations

from django.dispatch import Signal

# Sent (sender=Player) after the commit that banned a player, with keyword arguments
# `player`, `reason`, `until` (datetime or None: for good) and `by` (the staff Player or None).
# Matchmaking cancels the player's tickets; games hand the player's active seats to the CPU.
player_banned = Signal()

# Sent (sender=Player) after the commit that erased a player (accounts.services.player_erase),
# with `player`: as for a ban, their tickets are cancelled and the CPU takes their seats.
player_erased = Signal()

# Sent (sender=Player) when what a player's friends see of their presence may have changed: their
# first `ws /ws/v1/me/` socket opened, their last closed (or expired: core/presence.py), or they
# turned `appear_offline` on or off (after that commit). With `player_id`. Sent by the me socket
# (games), which sits below the app that knows friends (social), whose receiver pushes the news.
player_presence_changed = Signal()
