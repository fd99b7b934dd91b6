"""HTTP for friends, requests, blocks and challenges (docs/api.md, Friends, blocks and presence;
Challenges). Thin views over social's services and reads."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import request_player
from core.errors import ApplicationError, error_responses
from core.payloads import PayloadSerializers
from core.public import PAGE_PARAMETERS, Pagination
from core.schema import paginated
from games.apis import PAYLOADS as GAME_PAYLOADS
from games.payloads import RulesData
from ratings.payloads import PlayerData, PlayerSerializer
from social import selectors
from social.payloads import (
    BlockData,
    ChallengeData,
    ChallengeListData,
    ChallengeMessage,
    FriendData,
    FriendMessage,
    FriendOutcomeData,
    FriendRequestData,
    FriendRequestMessage,
    PresenceMessage,
)
from social.services import (
    block_create,
    block_remove,
    challenge_accept,
    challenge_cancel,
    challenge_create,
    challenge_decline,
    friend_add,
    friend_remove,
)

# A challenge's `rules` are games' `Rules` component (one serializer per TypedDict).
SCHEMAS = PayloadSerializers(
    known={PlayerData: PlayerSerializer, RulesData: GAME_PAYLOADS.of(RulesData)}
)
FriendSerializer = SCHEMAS.of(FriendData)
FriendRequestSerializer = SCHEMAS.of(FriendRequestData)
FriendOutcomeSerializer = SCHEMAS.of(FriendOutcomeData)
BlockSerializer = SCHEMAS.of(BlockData)
FriendRequestMessageSerializer = SCHEMAS.of(FriendRequestMessage)
FriendMessageSerializer = SCHEMAS.of(FriendMessage)
PresenceMessageSerializer = SCHEMAS.of(PresenceMessage)
ChallengeSerializer = SCHEMAS.of(ChallengeData)
ChallengeListSerializer = SCHEMAS.of(ChallengeListData)
ChallengeMessageSerializer = SCHEMAS.of(ChallengeMessage)


class PlayerIdInput(serializers.Serializer[dict[str, Any]]):
    player_id = serializers.UUIDField()


def _player_id(request: Request) -> UUID:
    data = PlayerIdInput(data=request.data)
    data.is_valid(raise_exception=True)
    player_id: UUID = data.validated_data["player_id"]
    return player_id


class FriendsApi(APIView):
    @extend_schema(
        operation_id="me_friends",
        description="The caller's friends, the newest friendship first, each with what they "
        "are doing (`presence`).",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(FriendSerializer(many=True), "Friend"),
            **error_responses(401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        rows = selectors.friends(request_player(request))
        page = paginator.paginate_queryset(rows, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(selectors.friend_rows(page))

    @extend_schema(
        operation_id="me_friends_add",
        description="Ask a player to be friends (pushed to them as `friend_request`), or accept "
        "the request they sent (pushed to them as `friend`). Registered players only, both "
        "sides.",
        request=PlayerIdInput,
        responses={201: FriendOutcomeSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        player = request_player(request)
        sent, friendship = friend_add(player=player, other_id=_player_id(request))
        outcome: FriendOutcomeData = {
            "status": "requested" if sent is not None else "friends",
            "request": None if sent is None else selectors.request_data(sent, player.pk),
            "friend": None if friendship is None else selectors.friend_rows([friendship])[0],
        }
        return Response(outcome, status=status.HTTP_201_CREATED)


class FriendDetailApi(APIView):
    @extend_schema(
        operation_id="me_friends_remove",
        description="End the friendship with this player, withdraw the request sent them, or "
        "decline theirs.",
        request=None,
        responses={204: None, **error_responses(400, 401, 403, 404)},
    )
    def delete(self, request: Request, player_id: UUID) -> Response:
        friend_remove(player=request_player(request), other_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendRequestsApi(APIView):
    @extend_schema(
        operation_id="me_friend_requests",
        description="The caller's open friend requests, incoming and outgoing (or "
        "`?direction=incoming|outgoing`), the newest first.",
        parameters=[*PAGE_PARAMETERS, OpenApiParameter("direction", str)],
        responses={
            200: paginated(FriendRequestSerializer(many=True), "FriendRequest"),
            **error_responses(400, 401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        direction = request.query_params.get("direction")
        if direction not in (None, "incoming", "outgoing"):
            raise ApplicationError("invalid", _('direction must be "incoming" or "outgoing".'))
        player = request_player(request)
        paginator = Pagination()
        rows = selectors.open_requests(player, direction)
        page = paginator.paginate_queryset(rows, request, view=self)
        assert page is not None
        return paginator.get_paginated_response(
            [selectors.request_data(row, player.pk) for row in page]
        )


class BlocksApi(APIView):
    @extend_schema(
        operation_id="me_blocks",
        description="The players the caller blocks, the latest first.",
        parameters=PAGE_PARAMETERS,
        responses={
            200: paginated(BlockSerializer(many=True), "Block"),
            **error_responses(401, 403),
        },
    )
    def get(self, request: Request) -> Response:
        paginator = Pagination()
        rows = selectors.blocks(request_player(request))
        page = paginator.paginate_queryset(rows, request, view=self)
        assert page is not None
        return paginator.get_paginated_response([selectors.block_data(row) for row in page])

    @extend_schema(
        operation_id="me_blocks_add",
        description="Block a player: any friendship and request between you end; neither may "
        "ask the other, neither sees the other's presence, and the ranked queue never seats "
        "you together.",
        request=PlayerIdInput,
        responses={201: BlockSerializer, **error_responses(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request) -> Response:
        block = block_create(player=request_player(request), other_id=_player_id(request))
        block = selectors.blocks(block.blocker).get(pk=block.pk)
        return Response(selectors.block_data(block), status=status.HTTP_201_CREATED)


class BlockDetailApi(APIView):
    @extend_schema(
        operation_id="me_blocks_remove",
        request=None,
        responses={204: None, **error_responses(400, 401, 403, 404)},
    )
    def delete(self, request: Request, player_id: UUID) -> Response:
        block_remove(player=request_player(request), other_id=player_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


# Challenges ------------------------------------------------------------------------------


class ChallengeInput(PlayerIdInput):
    max_players = serializers.IntegerField(
        min_value=2,
        max_value=8,
        default=2,
        help_text="The table's seats: 2-5, up to 8 with "
        "`decks: 2`. A table of two starts at the acceptance.",
    )
    rules = serializers.DictField(
        default=dict, help_text="As `POST /games/` takes them (docs/api.md, Variants)."
    )


class ChallengesApi(APIView):
    @extend_schema(
        operation_id="challenges",
        description="The caller's open challenges, to them and from them.",
        responses={200: ChallengeListSerializer, **error_responses(401, 403)},
    )
    def get(self, request: Request) -> Response:
        incoming, outgoing = selectors.open_challenges(request_player(request))
        listed: ChallengeListData = {
            "incoming": [selectors.challenge_data(row) for row in incoming],
            "outgoing": [selectors.challenge_data(row) for row in outgoing],
        }
        return Response(listed)

    @extend_schema(
        operation_id="challenges_create",
        description="Challenge a player to a private table (pushed to both as `challenge`): a "
        "friend, or anyone whose `challenges_from` allows it. Registered players only. It "
        "expires after `YANIV_CHALLENGE_SECONDS` unanswered.",
        request=ChallengeInput,
        responses={201: ChallengeSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request: Request) -> Response:
        data = ChallengeInput(data=request.data)
        data.is_valid(raise_exception=True)
        challenge = challenge_create(
            player=request_player(request),
            other_id=data.validated_data["player_id"],
            max_players=data.validated_data["max_players"],
            rules=data.validated_data["rules"],
        )
        return Response(selectors.challenge_data(challenge), status=status.HTTP_201_CREATED)


class ChallengeDetailApi(APIView):
    @extend_schema(
        operation_id="challenges_get",
        responses={200: ChallengeSerializer, **error_responses(401, 403, 404)},
    )
    def get(self, request: Request, challenge_id: UUID) -> Response:
        challenge = selectors.challenge_of(challenge_id, request_player(request))
        return Response(selectors.challenge_data(challenge))

    @extend_schema(
        operation_id="challenges_cancel",
        description="The challenger withdraws an open challenge.",
        request=None,
        responses={204: None, **error_responses(401, 403, 404, 409)},
    )
    def delete(self, request: Request, challenge_id: UUID) -> Response:
        challenge_cancel(player=request_player(request), challenge_id=challenge_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ChallengeAcceptApi(APIView):
    @extend_schema(
        operation_id="challenges_accept",
        description="The challenged player accepts: a private table with both seated, the "
        "challenger its host (`game_id`); a table of two has started, a larger one waits for "
        "its host to invite or add CPUs and start it.",
        request=None,
        responses={200: ChallengeSerializer, **error_responses(401, 403, 404, 409)},
    )
    def post(self, request: Request, challenge_id: UUID) -> Response:
        challenge = challenge_accept(player=request_player(request), challenge_id=challenge_id)
        return Response(selectors.challenge_data(challenge))


class ChallengeDeclineApi(APIView):
    @extend_schema(
        operation_id="challenges_decline",
        request=None,
        responses={200: ChallengeSerializer, **error_responses(401, 403, 404, 409)},
    )
    def post(self, request: Request, challenge_id: UUID) -> Response:
        challenge = challenge_decline(player=request_player(request), challenge_id=challenge_id)
        return Response(selectors.challenge_data(challenge))
