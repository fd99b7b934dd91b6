"""`games_lock`: a game locked, with its last event and its seats, in one round trip
(games/locks.py says why it is a function)."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION games_lock(locked_id uuid, skip_locked boolean)
RETURNS TABLE (
    game_row games_game,
    last_event_id bigint,
    seat_row games_seat,
    player_row accounts_player,
    rating_row ratings_rating
)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF skip_locked THEN
        PERFORM FROM games_game g WHERE g.id = locked_id FOR UPDATE SKIP LOCKED;
    ELSE
        PERFORM FROM games_game g WHERE g.id = locked_id FOR UPDATE;
    END IF;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    -- Each statement below reads with a snapshot of its own, taken now that the lock is
    -- held: it sees whatever the transaction that held the lock before committed.
    RETURN QUERY
        SELECT g, (SELECT e.id FROM games_event e WHERE e.game_id = g.id ORDER BY e.id DESC LIMIT 1),
            NULL::games_seat, NULL::accounts_player, NULL::ratings_rating
        FROM games_game g WHERE g.id = locked_id;
    RETURN QUERY
        SELECT NULL::games_game, NULL::bigint, s, p, r
        FROM games_seat s
        LEFT JOIN accounts_player p ON p.id = s.player_id
        LEFT JOIN ratings_rating r ON r.player_id = p.id
        WHERE s.game_id = locked_id ORDER BY s.seat;
END
$$;
"""
BACKWARD = "DROP FUNCTION IF EXISTS games_lock(uuid, boolean);"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_verbose_names"),
        ("accounts", "0014_verbose_names"),
        ("ratings", "0004_verbose_names"),
    ]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
