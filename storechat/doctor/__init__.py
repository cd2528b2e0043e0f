"""``storechat doctor``: checks a deployed stack the way an operator would after each
deploy, and says in plain words how to fix what fails (see ``command``)."""
