from django.urls import path

from matchmaking import apis

urlpatterns = [
    path("matchmaking/tickets/", apis.TicketCreateApi.as_view(), name="matchmaking-tickets-create"),
    path(
        "matchmaking/tickets/<uuid:ticket_id>/",
        apis.TicketDetailApi.as_view(),
        name="matchmaking-tickets-detail",
    ),
]
