"""The unit tier's network guard really refuses non-loopback addresses."""

from __future__ import annotations

import socket

import pytest


def test_the_network_guard_refuses_a_public_address() -> None:
    # Given a socket, When it connects outside loopback, Then the guard refuses it.
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError, match="network"):
        sock.connect(("93.184.216.34", 80))
