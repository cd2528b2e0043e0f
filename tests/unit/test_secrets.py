"""A Secrets Manager secret as the functions read it (``shared.config.secrets.read_secret``):
its text, a blank one as "not configured", a failed read raised with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from aws_lambda_powertools.utilities import parameters

from shared.config.secrets import SECRET_MAX_AGE_S, read_secret

ARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:webhook-AbCdEf"


@dataclass
class FakeSecretsManager:
    """Secrets by ARN, as Powertools' ``get_secret`` hands them over; each read noted."""

    values: dict[str, str | bytes] = field(default_factory=dict)
    reads: list[tuple[str, int]] = field(default_factory=list)

    def get_secret(self, name: str, *, max_age: int) -> str | bytes:
        self.reads.append((name, max_age))
        if name not in self.values:
            raise parameters.GetParameterError(f"ResourceNotFoundException: {name} not found")
        return self.values[name]


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch) -> FakeSecretsManager:
    fake = FakeSecretsManager()
    monkeypatch.setattr(parameters, "get_secret", fake.get_secret)
    return fake


def test_a_secret_is_its_text_without_the_white_space_around_it(
    secrets: FakeSecretsManager,
) -> None:
    # Given a token an operator pasted with a line break after it
    secrets.values[ARN] = "  shpat_0123456789\n"
    # When it is read, Then it is the token, kept five minutes by Powertools
    assert read_secret(ARN) == "shpat_0123456789"
    assert secrets.reads == [(ARN, SECRET_MAX_AGE_S)] and SECRET_MAX_AGE_S == 300


def test_a_binary_secret_is_read_as_utf8_text(secrets: FakeSecretsManager) -> None:
    # Given a secret stored as SecretBinary, When it is read, Then it is its text
    secrets.values[ARN] = "ck_ü:cs_1 ".encode()
    assert read_secret(ARN) == "ck_ü:cs_1"


@pytest.mark.parametrize("blank", [" ", "", "\n\t", b" "])
def test_a_blank_secret_is_not_configured(secrets: FakeSecretsManager, blank: str | bytes) -> None:
    # Given the secret as the stack leaves it (a single space) or emptied by an operator
    secrets.values[ARN] = blank
    # When it is read, Then it says "not configured", never a credential that is empty
    assert read_secret(ARN) is None


def test_a_caller_may_read_it_afresh_every_time(secrets: FakeSecretsManager) -> None:
    # Given a function that must use a rotated secret from its next run on (the sync)
    secrets.values[ARN] = "token"
    # When it reads with no cache, Then Powertools is asked for a value no older than now
    assert read_secret(ARN, max_age_s=0) == "token"
    assert secrets.reads == [(ARN, 0)]


def test_a_secret_that_cannot_be_read_raises_with_the_services_reason(
    secrets: FakeSecretsManager,
) -> None:
    # Given no secret by that ARN, When it is read, Then the error says why, for the log
    with pytest.raises(parameters.GetParameterError, match="ResourceNotFoundException"):
        read_secret(ARN)
