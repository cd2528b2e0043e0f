"""Unit tests cannot reach the network: only loopback connections are allowed."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _is_loopback(address: Any) -> bool:
    if not isinstance(address, tuple):  # unix sockets are local by definition
        return True
    host = address[0]
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guarded(real: Any) -> Any:
    def connect(self: socket.socket, address: Any) -> Any:
        if not _is_loopback(address):
            raise ConnectionRefusedError(f"unit tests may not reach the network ({address!r})")
        return real(self, address)

    return connect


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(socket.socket, "connect", _guarded(_real_connect))
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded(_real_connect_ex))
    yield
