from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.health import healthz

api_v1 = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]
