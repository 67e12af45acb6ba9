"""Request bodies, validated at the edge."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field

from brainbridge.bounds import MAX_DEPTH, MAX_NUMBER, depth_of

MAX_TEXT = 5_500_000


def _bounded(value: dict[str, Any]) -> dict[str, Any]:
    if depth_of(value) > MAX_DEPTH:
        raise ValueError(f"nests deeper than {MAX_DEPTH} levels")
    return value


# Attributes nest at most MAX_DEPTH levels (pydantic reports the breach as a 422).
Attributes = Annotated[dict[str, Any], AfterValidator(_bounded)]


class EntityIn(BaseModel):
    type: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=500)
    description: str | None = Field(default=None, max_length=MAX_TEXT)
    attributes: Attributes = Field(default_factory=dict)


class Ref(BaseModel):
    type: str | None = None
    name: str


class RelationIn(BaseModel):
    src: Ref | str
    relation: str = Field(min_length=1, max_length=100)
    dst: Ref | str
    attributes: Attributes = Field(default_factory=dict)


class RecallIn(BaseModel):
    query: str = Field(max_length=MAX_TEXT)
    num_results: int = Field(default=5, ge=1, le=100)
    entity_types: list[str] | None = None
    exclude_types: list[str] | None = None
    as_of: str | None = Field(default=None, max_length=32)
    superseded: bool = False


class MergeIn(BaseModel):
    keep: Ref
    other: Ref


class InvalidateIn(BaseModel):
    on: str | None = Field(default=None, max_length=32)


class ContextIn(BaseModel):
    project_root: str = Field(min_length=1, max_length=4096)
    recent_files: list[str] | None = None
    limit: int = Field(default=10, ge=1, le=100)


class EnrichIn(BaseModel):
    message: str = Field(max_length=MAX_TEXT)
    session_id: str | None = Field(default=None, max_length=200)


class ObserveIn(BaseModel):
    session_id: str = Field(min_length=1, max_length=200)
    exchange_number: int | None = Field(default=None, ge=1, le=MAX_NUMBER)
    message: str = Field(max_length=MAX_TEXT)
    response: str = Field(max_length=MAX_TEXT)
    wait: bool = False


class SessionPatch(BaseModel):
    title: str | None = Field(default=None, max_length=300)
    summary: str | None = Field(default=None, max_length=20_000)
