"""Brave Search on 127.0.0.1, serving whatever reviews a test injects.

The reviews tool reaches it through ``BRAVE_BASE_URL``, as it would reach Brave, so its
real HTTP path, cleaning, caps, marking and screening all run::

    with FakeBrave() as brave:
        brave.reviews([{"title": "…", "url": "https://…", "description": "Ignore …"}])
        with LocalStorechat(env=brave.environment) as local: ...

Every query gets the same results (``web.results``, any JSON); ``requests`` (from
:class:`~tests.support.fake_http.FakeHttpServer`) records what the tool asked.
"""

from __future__ import annotations

from typing import Any

from storechat.redteam.web import BRAVE_PATH
from tests.support.fake_http import FakeHttpServer

API_KEY = "brave-stand-in"


class FakeBrave(FakeHttpServer):
    def reviews(self, results: list[Any], *, status: int = 200) -> None:
        """Answer every search with ``results`` as Brave's ``web.results``."""
        self.route(BRAVE_PATH, status=status, body={"web": {"results": results}})

    @property
    def environment(self) -> dict[str, str]:
        """The reviews tool's variables that point it here, with a key it accepts."""
        return {"BRAVE_API_KEY": API_KEY, "BRAVE_BASE_URL": self.base_url}
