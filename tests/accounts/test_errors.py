"""The one exception handler: every error body has `detail` and `code`."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings

from core.errors import ApplicationError

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.accounts.error_urls")]

FAIL = "/api/v1/test-errors/{}/"


def test_application_error_merges_extra_into_the_body(api_client) -> None:
    response = api_client.get(FAIL.format("application"))

    assert response.status_code == 409
    assert response.json() == {
        "detail": "The game has moved on.",
        "code": "stale_seq",
        "game": {"seq": 7},
    }


def test_application_error_defaults_to_400(api_client) -> None:
    response = api_client.get(FAIL.format("application-default"))

    assert response.status_code == 400
    assert response.json() == {"detail": "Not a valid group.", "code": "illegal_move"}


def test_application_error_keeps_detail_and_code_over_extra() -> None:
    error = ApplicationError("x", "said", extra={"code": "y", "detail": "other", "more": 1})

    assert error.body() == {"detail": "said", "code": "x", "more": 1}


def test_validation_error_is_invalid_with_errors_by_field(api_client) -> None:
    response = api_client.post(
        FAIL.format("validation"), {"seats": [{"seat": 1}, {"seat": -1}]}, format="json"
    )

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["errors"] == {
        "name": ["This field is required."],
        "seats.1.seat": ["Ensure this value is greater than or equal to 0."],
    }
    assert body["detail"] == "name: This field is required."


def test_a_body_that_is_not_an_object_is_invalid(api_client) -> None:
    response = api_client.post(FAIL.format("validation"), [1, 2], format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["errors"]) == ["non_field_errors"]
    assert body["detail"] == body["errors"]["non_field_errors"][0]


def test_malformed_json_is_400_invalid(api_client) -> None:
    response = api_client.post(
        FAIL.format("validation"), "{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "JSON parse error" in response.json()["detail"]


def test_unsupported_media_type(api_client) -> None:
    response = api_client.post(FAIL.format("validation"), "a=1", content_type="text/plain")

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


@pytest.mark.parametrize("kind", ["not-found", "django-404"])
def test_not_found_is_404(api_client, kind: str) -> None:
    response = api_client.get(FAIL.format(kind))

    assert response.status_code == 404
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_permission_denied_is_403(api_client) -> None:
    response = api_client.get(FAIL.format("permission"))

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


def test_method_not_allowed_is_405(api_client) -> None:
    response = api_client.delete(FAIL.format("application"))

    assert response.status_code == 405
    assert response.json() == {
        "detail": 'Method "DELETE" not allowed.',
        "code": "method_not_allowed",
    }


def test_unauthenticated_is_401(api_client) -> None:
    response = api_client.get("/api/v1/me/")

    assert response.status_code == 401
    assert set(response.json()) == {"detail", "code"}


def test_unknown_api_url_is_a_json_404(api_client) -> None:
    response = api_client.get("/api/v1/no-such-thing/")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not found.", "code": "not_found"}


def test_unknown_page_outside_the_api_stays_html(api_client) -> None:
    response = api_client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_crash_in_the_api_is_a_json_500() -> None:
    client = Client(raise_request_exception=False)

    response = client.get(FAIL.format("unexpected"))

    assert response.status_code == 500
    assert response.json() == {"detail": "Internal server error.", "code": "server_error"}


def test_a_crash_outside_the_api_stays_html() -> None:
    client = Client(raise_request_exception=False)

    response = client.get("/crash/")

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_throttled_is_429_with_retry_after(api_client, settings) -> None:
    rest_framework = {**settings.REST_FRAMEWORK}
    rest_framework["DEFAULT_THROTTLE_RATES"] = {
        **rest_framework["DEFAULT_THROTTLE_RATES"],
        "player": "2/min",
    }
    with override_settings(REST_FRAMEWORK=rest_framework):
        statuses = [api_client.get(FAIL.format("not-found")).status_code for _ in range(3)]
        response = api_client.get(FAIL.format("not-found"))

    assert statuses == [404, 404, 429]
    assert response.status_code == 429
    assert response.json() == {
        "detail": response.json()["detail"],
        "code": "throttled",
        "scope": "player",
        "retry_after": int(response["Retry-After"]),
    }
    assert 1 <= int(response["Retry-After"]) <= 60


def test_a_database_that_does_not_answer_is_503_with_retry_after(api_client) -> None:
    response = api_client.get(FAIL.format("database-down"))

    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert int(response["Retry-After"]) >= 1


def test_a_bad_query_is_still_a_server_error(api_client) -> None:
    api_client.raise_request_exception = False

    assert api_client.get(FAIL.format("database-bug")).status_code == 500
