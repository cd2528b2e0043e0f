"""What starts a rebuild: the three events the indexer accepts, and nothing else.

* a batch of the catalog table's DynamoDB stream (``{"Records": [...]}``);
* an EventBridge scheduled event (``"detail-type": "Scheduled Event"``);
* a direct invoke ``{"rebuild": true, "reason": "..."}`` (the deploy sends one; an
  operator can too).

Whatever starts it, a rebuild reads the whole catalog from the source of truth, so a
stream record's content is only read for one thing: whether the change touches
anything but what the catalog tool reads fresh from the table for every product it
shows (price and stock, :data:`~shared.search.build.READ_FRESH`). A batch of such
changes alone needs no rebuild (:attr:`Trigger.needs_rebuild`). A record without
both images (a stream that sends keys only) counts as a change to what is searched.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from shared.search.build import READ_FRESH

TriggerKind = Literal["stream", "schedule", "request"]


class InvalidTrigger(ValueError):
    """The event is none of the three the indexer accepts."""


class _StreamChange(BaseModel):
    model_config = ConfigDict(extra="ignore")

    SequenceNumber: Annotated[str, Field(min_length=1)]
    ApproximateCreationDateTime: float | None = None
    OldImage: dict[str, Any] | None = None
    NewImage: dict[str, Any] | None = None


class _StreamRecord(BaseModel):
    model_config = ConfigDict(extra="ignore")

    eventID: str
    eventName: Literal["INSERT", "MODIFY", "REMOVE"]
    eventSource: Literal["aws:dynamodb"]
    dynamodb: _StreamChange

    @property
    def fresh_only(self) -> bool:
        """Whether this change is to price or stock alone (both images say so)."""
        old, new = self.dynamodb.OldImage, self.dynamodb.NewImage
        if self.eventName != "MODIFY" or old is None or new is None:
            return False

        def searched(image: dict[str, Any]) -> dict[str, Any]:
            return {k: v for k, v in image.items() if k not in READ_FRESH}

        return searched(old) == searched(new)


class _StreamBatch(BaseModel):
    model_config = ConfigDict(extra="ignore")

    Records: Annotated[list[_StreamRecord], Field(min_length=1)]


class _ScheduledEvent(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    source: Literal["aws.events", "aws.scheduler"]
    detail_type: Annotated[Literal["Scheduled Event"], Field(alias="detail-type")]


class RebuildRequest(BaseModel):
    """A direct invoke: ``{"rebuild": true}``, optionally saying why."""

    model_config = ConfigDict(extra="forbid")

    rebuild: Literal[True]
    reason: Annotated[str | None, Field(max_length=200)] = None


@dataclass(frozen=True)
class Trigger:
    kind: TriggerKind
    changes: int = 0
    """Stream records in the batch (0 for the other kinds)."""
    fresh_only_changes: int = 0
    """Of those, the changes to price or stock alone: read fresh, nothing to rebuild."""
    oldest_change: datetime | None = None
    """When the oldest change of a stream batch was written, as DynamoDB tells it."""
    reason: str | None = None

    @property
    def needs_rebuild(self) -> bool:
        """False for a stream batch whose every change is to price or stock alone: the
        snapshot in force still finds the same products, and the catalog tool reads
        those two fields from the table for every product it shows."""
        return self.kind != "stream" or self.fresh_only_changes < self.changes

    @property
    def wants_batch_response(self) -> bool:
        """A stream batch is answered with ``batchItemFailures`` (ReportBatchItemFailures)."""
        return self.kind == "stream"


def parse_trigger(event: Any) -> Trigger:
    """The trigger ``event`` describes, or :class:`InvalidTrigger`."""
    if not isinstance(event, dict):
        raise InvalidTrigger(f"expected a JSON object, got {type(event).__name__}")
    try:
        if "Records" in event:
            batch = _StreamBatch.model_validate(event)
            times = [
                r.dynamodb.ApproximateCreationDateTime
                for r in batch.Records
                if r.dynamodb.ApproximateCreationDateTime is not None
            ]
            oldest = datetime.fromtimestamp(min(times), UTC) if times else None
            return Trigger(
                "stream",
                changes=len(batch.Records),
                fresh_only_changes=sum(r.fresh_only for r in batch.Records),
                oldest_change=oldest,
            )
        if "detail-type" in event:
            _ScheduledEvent.model_validate(event)
            return Trigger("schedule")
        request = RebuildRequest.model_validate(event)
        return Trigger("request", reason=request.reason)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(event)'}: {e['msg']}" for e in exc.errors()
        )
        raise InvalidTrigger(f"not an indexer event: {problems}") from None
