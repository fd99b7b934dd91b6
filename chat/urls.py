from django.urls import path

from chat import apis

urlpatterns = [
    path("games/<uuid:game_id>/chat/", apis.GameChatApi.as_view(), name="game-chat"),
    path("chat/phrases/", apis.PhrasesApi.as_view(), name="chat-phrases"),
    path(
        "chat/messages/<uuid:message_id>/reports/",
        apis.ChatReportApi.as_view(),
        name="chat-message-reports",
    ),
]
