"""The shapes of the game payloads, for the OpenAPI schema only.

The payloads themselves are built by the projection in games/selectors.py; these serializers
describe them (API.md, "game", "Events", "Record") so that clients can generate code.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ratings.payloads import PlayerSerializer


def _cards(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


class _Shape(serializers.Serializer[dict[str, Any]]):
    pass


class SeatSchema(_Shape):
    seat = serializers.IntegerField()
    player = PlayerSerializer(allow_null=True)
    is_cpu = serializers.BooleanField()
    away = serializers.BooleanField(help_text="Missed a deadline: the CPU plays for them.")
    left = serializers.BooleanField(help_text="Left for good: the CPU plays to the end.")
    score = serializers.IntegerField()
    eliminated = serializers.BooleanField()
    hand_count = serializers.IntegerField()
    known = _cards("Cards this seat took face up and still holds (public).")
    place = serializers.IntegerField(allow_null=True)


class TurnSchema(_Shape):
    seat = serializers.IntegerField()
    deadline = serializers.DateTimeField(allow_null=True)


class YouSchema(_Shape):
    seat = serializers.IntegerField()
    hand = _cards("Your hand; nobody else's is ever sent.")
    hand_total = serializers.IntegerField()
    can_call_yaniv = serializers.BooleanField()


class DiscardSchema(_Shape):
    cards = _cards("The last discarded group in laid order.")
    takeable = _cards("Its ends: what the next player may draw.")
    seat = serializers.IntegerField(allow_null=True)


class LastRoundSchema(_Shape):
    round = serializers.IntegerField()
    caller = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["yaniv", "assaf"])
    hands = serializers.DictField(child=_cards(), help_text="Seat -> hand shown at the end.")
    hand_totals = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    points = serializers.ListField(child=serializers.IntegerField(allow_null=True))
    totals = serializers.ListField(child=serializers.IntegerField())
    eliminated = serializers.ListField(child=serializers.IntegerField())


class PlaceSchema(_Shape):
    seat = serializers.IntegerField()
    place = serializers.IntegerField()


class GameSchema(_Shape):
    id = serializers.UUIDField()
    status = serializers.ChoiceField(choices=["waiting", "active", "finished", "aborted"])
    ranked = serializers.BooleanField()
    rules = serializers.DictField()
    max_players = serializers.IntegerField()
    invite_code = serializers.CharField(allow_null=True, help_text="Shown to the host only.")
    seq = serializers.IntegerField(help_text="Actions applied so far; send it with an action.")
    round = serializers.IntegerField()
    seats = SeatSchema(many=True)
    turn = TurnSchema(allow_null=True)
    you = YouSchema(allow_null=True)
    discard = DiscardSchema()
    pile = _cards("Face-up cards under the last group, oldest first.")
    stock_count = serializers.IntegerField()
    last_round = LastRoundSchema(allow_null=True)
    standings = PlaceSchema(many=True, allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class RatedSchema(_Shape):
    seat = serializers.IntegerField()
    player_id = serializers.UUIDField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    delta = serializers.FloatField(help_text="The change of ordinal this game made.")


class EventSchema(_Shape):
    seq = serializers.IntegerField()
    at = serializers.DateTimeField()
    type = serializers.ChoiceField(
        choices=[
            "game_started",
            "round_started",
            "played",
            "reshuffled",
            "yaniv_called",
            "round_ended",
            "player_away",
            "player_returned",
            "player_left",
            "game_ended",
            "rated",
            "game_voided",
        ]
    )
    # Each type carries some of these (API.md, Events); none is there for every type.
    players = serializers.IntegerField(required=False, help_text="`game_started`: seats.")
    seats = serializers.ListField(child=serializers.DictField(), required=False)
    round = serializers.IntegerField(required=False)
    starter = serializers.IntegerField(required=False, help_text="`round_started`.")
    seat = serializers.IntegerField(required=False)
    by = serializers.ChoiceField(choices=["player", "cpu"], required=False)
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    draw = serializers.CharField(required=False)
    drawn = serializers.CharField(required=False, help_text="Only to the seat that drew it.")
    stock_count = serializers.IntegerField(required=False, help_text="`reshuffled`.")
    caller = serializers.IntegerField(required=False, help_text="`round_ended`, as below.")
    outcome = serializers.ChoiceField(choices=["yaniv", "assaf"], required=False)
    hands = serializers.DictField(child=_cards(), required=False)
    hand_totals = serializers.ListField(
        child=serializers.IntegerField(allow_null=True), required=False
    )
    points = serializers.ListField(child=serializers.IntegerField(allow_null=True), required=False)
    totals = serializers.ListField(child=serializers.IntegerField(), required=False)
    eliminated = serializers.ListField(child=serializers.IntegerField(), required=False)
    next_starter = serializers.IntegerField(allow_null=True, required=False)
    standings = PlaceSchema(many=True, required=False)
    ratings = RatedSchema(many=True, required=False, help_text="With `rated`.")
    reason = serializers.CharField(required=False, help_text="`game_voided`.")


class RecordSchema(_Shape):
    format = serializers.CharField(default="yaniv-record/1")
    rules = serializers.DictField()
    players = serializers.IntegerField()
    seats = serializers.ListField(child=serializers.DictField())
    rounds = serializers.ListField(child=serializers.DictField())
