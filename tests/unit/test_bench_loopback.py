"""The bench's loopback stand-ins: a caller that stops waiting is not a failure of theirs."""

from __future__ import annotations

from http.server import BaseHTTPRequestHandler

import pytest

from bench.loopback import LoopbackServer


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.mark.parametrize(
    ("error", "printed"),
    [
        # A caller that gave up (a live-trace step's writer after its short timeout, under
        # a CPU quota) reset the connection before the answer was written
        (BrokenPipeError(32, "Broken pipe"), False),
        (ConnectionResetError(104, "Connection reset by peer"), False),
        # The stand-in's own bug is still printed, as the bench's smoke test looks for it
        (KeyError("SecretString"), True),
    ],
)
def test_only_a_caller_gone_is_kept_quiet(
    capsys: pytest.CaptureFixture[str], error: Exception, printed: bool
) -> None:
    server = LoopbackServer(("127.0.0.1", 0), _Quiet)
    try:
        try:
            raise error
        except Exception:
            server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    assert ("Traceback" in capsys.readouterr().err) is printed
