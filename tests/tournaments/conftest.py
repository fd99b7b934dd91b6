# Players to seat, and the accounts tests' API clients, which record every response and check
# it for secrets (fixtures: pytest finds them by these names).
from tests.accounts.conftest import (  # noqa: F401
    _responses_leak_no_secrets,
    api_client,
    client_for,
    guest,
    guest_client,
    issue_token,
    issued_secrets,
    response_log,
)
from tests.games.conftest import players  # noqa: F401
