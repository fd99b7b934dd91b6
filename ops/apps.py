from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    name = "ops"
    verbose_name = _("Ops")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from ops import tasks_signals

        tasks_signals.connect()
