from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.health import healthz, livez, readyz
from ops.views import live_figures_view, metrics_view

api_v1: list[URLPattern | URLResolver] = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("", include("players.urls")),
    path("", include("games.urls")),
    path("", include("matchmaking.urls")),
    path("", include("seasons.urls")),
    path("", include("tournaments.urls")),
    path("", include("social.urls")),
    path("", include("chat.urls")),
    path("", include("moderation.urls")),
]

# Swagger UI's script is a file of its own (the split view), as the Content-Security-Policy
# wants; its page keeps one inline style.
api_docs = csp_update({"style-src": [UNSAFE_INLINE]})(
    SpectacularSwaggerSplitView.as_view(url_name="schema")
)

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("livez", livez, name="livez"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    # The staff page of live figures, among the admin's pages (staff only, as they are).
    path("admin/live/", admin.site.admin_view(live_figures_view), name="ops-live"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/docs/", api_docs, name="docs"),
    # Last: the web client's pages (/, /games/<id>...), none under the paths above.
    path("", include("web.urls")),
]

# JSON under /api/, Django's pages elsewhere.
handler404 = "core.errors.page_not_found"
handler500 = "core.errors.server_error"
