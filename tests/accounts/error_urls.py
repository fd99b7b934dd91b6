"""The project's URLs and error handlers, plus views that fail in every way the handler maps."""

from __future__ import annotations

from typing import Any

from django.db import OperationalError, ProgrammingError
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.urls import handler404, handler500
from config.urls import urlpatterns as project_urlpatterns
from core.errors import ApplicationError


class NestedInputSerializer(serializers.Serializer[Any]):
    class SeatSerializer(serializers.Serializer[Any]):
        seat = serializers.IntegerField(min_value=0)

    name = serializers.CharField()
    seats = SeatSerializer(many=True)


class FailingApi(APIView):
    authentication_classes = ()
    permission_classes = (AllowAny,)

    def get(self, request: Request, kind: str) -> Response:
        failures: dict[str, Exception] = {
            "application": ApplicationError(
                "stale_seq", "The game has moved on.", 409, extra={"game": {"seq": 7}}
            ),
            "application-default": ApplicationError("illegal_move", "Not a valid group."),
            "not-found": exceptions.NotFound(),
            "django-404": Http404("gone"),
            "permission": exceptions.PermissionDenied(),
            "unexpected": RuntimeError("a bug"),
            "database-down": OperationalError("connection refused"),
            "database-bug": ProgrammingError("no such column"),
        }
        raise failures[kind]

    def post(self, request: Request, kind: str) -> Response:
        serializer = NestedInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.validated_data)


def crashing_page(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug outside the API")


urlpatterns = [
    path("api/v1/test-errors/<str:kind>/", FailingApi.as_view()),
    path("crash/", crashing_page),
    *project_urlpatterns,
]

__all__ = ["handler404", "handler500", "urlpatterns"]
