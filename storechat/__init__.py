"""storechat: the local runner, dev server and CLI."""
