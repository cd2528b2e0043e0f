"""Why the local runner cannot start, said to the person at the terminal."""


class CannotRunLocally(RuntimeError):
    """What stops a local run before any question is asked: no AWS credentials for
    ``--model bedrock``, a moto version the runner is not pinned to. ``storechat`` prints
    it as ``error: ...`` and exits 2; any other error is a fault, and shows its traceback."""
