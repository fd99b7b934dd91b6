"""Who plays in this browser: a guest at once, renamed, registered, logged out and back in."""

from __future__ import annotations

import uuid

from playwright.sync_api import expect

PASSWORD = "a-long-and-unusual-passphrase-7"


def test_a_guest_renames_registers_logs_out_and_back_in(open_player) -> None:
    page = open_player("/")
    you = page.get_by_test_id("you-name")

    page.get_by_label("Name", exact=True).fill("Dana at the beach")
    page.get_by_role("button", name="Rename").click()
    expect(you).to_have_text("Dana at the beach")

    username = f"dana{uuid.uuid4().hex[:8]}"
    page.get_by_text("Register or log in").click()
    register = page.locator("form", has=page.get_by_role("heading", name="Register"))
    register.get_by_label("Username").fill(username)
    register.get_by_label("Password").fill(PASSWORD)
    register.get_by_role("button", name="Register").click()
    expect(page.get_by_text("Registered player.")).to_be_visible()
    expect(you).to_have_text("Dana at the beach")  # the same player, now registered

    page.get_by_role("button", name="Log out").click()
    expect(you).not_to_have_text("Dana at the beach")  # a new guest, playing at once
    expect(page.get_by_text("Register or log in")).to_be_visible()

    page.get_by_text("Register or log in").click()
    login = page.locator("form", has=page.get_by_role("heading", name="Log in"))
    login.get_by_label("Username").fill(username)
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in").click()
    expect(you).to_have_text("Dana at the beach")
    page.reload()  # the token is kept in the browser
    expect(you).to_have_text("Dana at the beach")
