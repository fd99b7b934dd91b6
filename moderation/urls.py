from django.urls import path

from moderation import apis

urlpatterns = [
    path("games/<uuid:game_id>/reports/", apis.GameReportApi.as_view(), name="games-reports"),
]
