"""The admin's index links to the staff page of live figures (ops/views.py, config/urls.py)."""

from __future__ import annotations

from django.contrib import admin

admin.site.index_template = "admin/ops/index.html"
