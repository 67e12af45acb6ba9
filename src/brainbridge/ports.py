"""Small protocols between features and backends."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

    from brainbridge.llm.base import ToolCall, ToolSpec
    from brainbridge.model import Entity, EntityRow, Relation, Session


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Return an array of shape (len(texts), dim), rows L2-normalised."""
        ...


class LLM(Protocol):
    """A chat model. Implementations live in `brainbridge.llm`; every failure is an LLMError.

    Callers always pass a timeout and keep a local fallback: the LLM is optional everywhere.
    """

    name: str

    async def complete_json(
        self, system: str, user: str, *, schema: dict[str, Any] | None = None, timeout: float
    ) -> dict[str, Any]:
        """Ask for one JSON object, shaped by `schema` when given.

        Raises:
            LLMError: timeout, transport failure, or an answer that is not a JSON object
                with the schema's required keys.
        """
        ...

    async def complete_text(
        self, system: str, messages: list[dict[str, str]], *, timeout: float
    ) -> str:
        """Continue a chat of {"role", "content"} messages and return the reply text.

        Raises:
            LLMError: timeout, transport failure or an empty answer.
        """
        ...

    async def call_tools(
        self,
        system: str,
        messages: list[dict[str, str]],
        tools: Sequence[ToolSpec],
        *,
        timeout: float,
        require: bool = False,
    ) -> list[ToolCall]:
        """Offer several tools in one request and return every call the model made.

        An empty list means the model chose to call none; `require=True` asks for at least one.

        Raises:
            LLMError: timeout, transport failure or malformed tool arguments.
        """
        ...

    async def aclose(self) -> None:
        """Release the HTTP connections; the object is unusable afterwards."""
        ...


class Store(Protocol):
    """Everything features and search read and write about entities, relations, names,
    merges, text, exchanges and vectors. `store/sqlite` is the embedded backend; a
    server backend implements the same methods. Not thread-safe: one thread uses one."""

    @property
    def read_only(self) -> bool:
        """True when the brain was opened for reading only (a read-only disk or folder)."""
        ...

    def changes(self) -> int:
        """A number that grows with every write through this store (a cheap cache key)."""
        ...

    def close(self) -> None: ...

    def export_records(self) -> Iterator[dict[str, Any]]:
        """Every history row (sessions, bridge log, curator runs, directives) as a record,
        parents before children."""
        ...

    def restore_record(self, record: dict[str, Any]) -> bool:
        """Write one exported history record back; False when it was there already.

        Raises: InvalidInput for a malformed record or one that refers to something missing.
        """
        ...

    # -- entities ------------------------------------------------------------------

    def upsert_entity(
        self,
        entity_type: str,
        name: str,
        description: str | None = None,
        attributes: dict[str, Any] | None = None,
    ) -> Entity:
        """Insert or merge one entity (attributes merge key by key; None deletes a key)."""
        ...

    def upsert_many(self, rows: Iterable[EntityRow]) -> list[Entity]:
        """Upsert many entities in one transaction (bulk import)."""
        ...

    def upsert_with_parts(
        self,
        rows: Iterable[EntityRow],
        parts: Sequence[tuple[str, Sequence[str], Sequence[EntityRow]]],
    ) -> list[Entity]:
        """Upsert `rows` and, in the same transaction, make the entities of each part type
        whose names start with one of its prefixes exactly its rows (the others deleted)."""
        ...

    def restore_many(self, rows: Sequence[dict[str, Any]]) -> None:
        """Write exported entities back exactly, timestamps included, in one transaction."""
        ...

    def get_entity(self, entity_type: str, name: str) -> Entity | None:
        """The entity with this type and name, or None."""
        ...

    def get_entities(self, ids: Sequence[int]) -> dict[int, Entity]:
        """Entities by id (missing ids are simply absent)."""
        ...

    def entities_named(self, names: Sequence[str]) -> dict[str, Entity]:
        """{name: entity} for names of any type (the bridge log keeps names only); where
        two types share a name, the one not a Chat_Exchange."""
        ...

    def heads(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        """{id: (type, name)} without reading descriptions or attributes."""
        ...

    def ids_named(self, entity_type: str, names: Sequence[str]) -> dict[str, int]:
        """{name: id} of the entities of one type with these names (absent ones left out)."""
        ...

    def find_by_name(self, name: str) -> list[Entity]:
        """Entities of any type whose name matches case-insensitively; failing that, those
        whose name or an alias matches with case, spacing and diacritics ignored."""
        ...

    def names_with_prefix(self, entity_type: str, prefix: str, limit: int = 100) -> list[Entity]:
        """Entities of one type whose name starts with `prefix` (an index range scan)."""
        ...

    def described_with_prefix(
        self, entity_type: str, prefix: str, limit: int = 100
    ) -> list[Entity]:
        """Entities of one type whose description starts with `prefix`, newest first."""
        ...

    def change_stamp(self) -> object | None:
        """A value that changes whenever this brain is written (by any process), to skip
        re-reading what did not change; None when the backend cannot tell."""
        ...

    def similar_names(self, name: str, limit: int = 3) -> list[str]:
        """Names that share a word with `name` ("Kevin" -> "Kevin Lee"), for "did you
        mean"."""
        ...

    def entities_with_attribute(self, key: str, value: str) -> list[Entity]:
        """Entities whose attribute `key` equals `value` (a scan: for imports, not the chat
        path)."""
        ...

    def newest_with_attribute(
        self, entity_type: str, key: str, value: str, limit: int = 100
    ) -> list[Entity]:
        """The newest `limit` entities of a type whose attribute `key` equals `value`."""
        ...

    def newest(self, entity_type: str, limit: int = 100) -> list[Entity]:
        """The newest `limit` entities of a type, newest first."""
        ...

    def list_entities(
        self,
        entity_type: str | None,
        contains: str = "",
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[Entity], int]:
        """A page of entities (of one type, or all), newest first, whose name or
        description holds `contains` (case-insensitive); and how many match in all."""
        ...

    def iter_entities(self, batch: int = 1000) -> Iterator[Entity]:
        """Every entity in id order."""
        ...

    def delete_entity(self, entity_type: str, name: str) -> bool:
        """Delete an entity with its relations, index rows and vector; False if absent."""
        ...

    def count_entities(self) -> int: ...

    def max_entity_id(self) -> int: ...

    def stats(self) -> dict[str, Any]:
        """Counts of entities per type, relations, vectors and the file size."""
        ...

    def get_types(self) -> dict[str, dict[str, Any]]: ...

    def put_types(self, types: dict[str, dict[str, Any]]) -> None:
        """Replace the stored entity-type specs with `types` ({name: spec})."""
        ...

    # -- relations and the graph ---------------------------------------------------

    def relate(
        self,
        src: tuple[str, str],
        relation_type: str,
        dst: tuple[str, str],
        attributes: dict[str, Any] | None = None,
        created_at: str | None = None,
    ) -> Relation:
        """Link two existing entities (idempotent; attributes merge)."""
        ...

    def unrelate(
        self, src: tuple[str, str], relation_type: str, dst: tuple[str, str] | None = None
    ) -> int:
        """Delete the `relation_type` relations from `src` (to `dst` only, when given)."""
        ...

    def relations_among(self, ids: Sequence[int]) -> list[Relation]:
        """Relations whose both ends are in `ids`."""
        ...

    def iter_relations(self) -> Iterator[Relation]:
        """Every relation, oldest first."""
        ...

    def neighbors(self, seed_ids: Sequence[int], hops: int = 2, limit: int = 500) -> dict[int, int]:
        """Entities within `hops` relations of the seeds (either direction): {id:
        distance}."""
        ...

    def degree(self, ids: Sequence[int]) -> dict[int, int]:
        """Number of relations touching each entity."""
        ...

    # -- names and merges ----------------------------------------------------------

    def name_owners(
        self,
        keys: Sequence[str],
        per_key: int,
    ) -> dict[tuple[str, int], list[tuple[str, str, int]]]:
        """Entities whose name has these lookup keys (see `name_keys`), for the bridge."""
        ...

    def name_key_owners(self, key: str, kind: int) -> list[int]:
        """Ids of entities with this name key (see `name_keys`)."""
        ...

    def merges(self, status: str | None = None, limit: int = 200) -> list[dict[str, Any]]: ...

    def propose_merge(
        self,
        entity_type: str,
        keep: str,
        other: str,
        score: float,
        reason: str,
    ) -> int | None: ...

    def merge(
        self,
        entity_type: str,
        keep: str,
        other: str,
        merge_id: int | None = None,
    ) -> dict[str, Any]: ...

    def accept_merge(self, merge_id: int) -> dict[str, Any]: ...

    def reject_merge(self, merge_id: int) -> dict[str, Any]: ...

    def unmerge(self, merge_id: int) -> dict[str, Any]: ...

    def export_merges(self) -> list[dict[str, Any]]: ...

    def restore_merge(self, row: dict[str, Any]) -> int: ...

    # -- text ----------------------------------------------------------------------

    def bm25(
        self,
        query: str,
        limit: int = 20,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
    ) -> list[tuple[int, float]]:
        """BM25 matches for free text as (entity id, score), best first; higher is better."""
        ...

    def doc_freq(self, terms: Sequence[str]) -> dict[str, int]:
        """Number of entities whose text contains each term."""
        ...

    def history_freq(self, terms: Sequence[str]) -> dict[str, int]:
        """Number of chat exchanges whose text contains each term."""
        ...

    # -- exchanges -----------------------------------------------------------------

    def has_turn_key(self, key: str) -> bool:
        """Whether an exchange with this turn key (see hooks/spool.py) is stored."""
        ...

    def exchange_positions(self, ids: Sequence[int]) -> dict[int, tuple[str, int]]:
        """{exchange id: (session id, exchange number)} for the exchanges among `ids`."""
        ...

    def exchanges_at(self, positions: Iterable[tuple[str, int]]) -> dict[tuple[str, int], int]:
        """{(session id, exchange number): id} of the exchanges at these positions."""
        ...

    # -- vectors -------------------------------------------------------------------

    def put_vectors(
        self,
        model: str,
        items: Sequence[tuple[int, bytes]],
        texts: Mapping[int, str] | None = None,
        parts: Mapping[int, bytes] | None = None,
    ) -> list[int]:
        """Store vectors for entities that still exist; with `texts` (what each vector
        was made from), only where the entity's text is still that; `parts`: the vectors
        of an entity's sentences, one blob each. Returns the ids left out for a changed
        text."""
        ...

    def pending_vectors(
        self,
        limit: int = 256,
        model: str | None = None,
        after: int = 0,
    ) -> list[tuple[int, str]]:
        """Entities with an id above `after` and no current vector (from `model`, when
        given), oldest first, with the text to embed."""
        ...

    def count_pending_vectors(self, model: str | None = None) -> int:
        """How many entities lack a vector (from `model`, when given)."""
        ...

    def vector_count(self) -> int:
        """Vectors of every model. Unfiltered, SQLite counts the small `seq` index (1.4 ms
        at 300k rows); `WHERE model = ?` reads every vector (180 ms)."""
        ...

    def vectors_since(
        self,
        model: str,
        seq: int,
        limit: int = 50000,
    ) -> list[tuple[int, int, bytes, str, bytes | None]]:
        """(entity id, seq, vector blob, entity type, its sentences' vectors or None)
        written after `seq`, oldest first."""
        ...

    def iter_vectors(
        self, batch: int = 1000
    ) -> Iterator[tuple[tuple[str, str], str, bytes, bytes | None]]:
        """((type, name), model, vector blob, sentence vectors or None) of every stored
        vector, in entity order."""
        ...


class Sessions(Protocol):
    """Chat sessions: titles and summaries, turn numbers, the per-turn bridge log and the
    curator's runs. `store/sqlite/sessions.py` is the embedded backend."""

    def ensure(self, session_id: str) -> Session:
        """The session with this id, created empty if new."""
        ...

    def get(self, session_id: str, log_limit: int = 50) -> Session | None:
        """The session with its most recent bridge log entries, or None."""
        ...

    def recent(self, limit: int = 50) -> list[Session]:
        """Most recently updated sessions first (without their logs)."""
        ...

    def update(self, session_id: str, **fields: Any) -> Session:
        """Set title, title_source, summary or message_count."""
        ...

    def set_title_unless_user(self, session_id: str, title: str, source: str) -> bool:
        """Set an automatic title unless the user already chose one; True if it changed."""
        ...

    def next_turn(self, session_id: str, wanted: int | None = None) -> int:
        """Take the session's next exchange number, or claim `wanted` (creating the session
        if needed); message_count moves up to the number at once."""
        ...

    def record_turn(
        self,
        session_id: str,
        turn: int,
        entry: dict[str, Any],
        count: bool = True,
    ) -> None:
        """Add or merge the bridge log entry of one turn; `count` raises message_count to
        it."""
        ...

    def start_curator_run(self, session_id: str, trigger: str) -> int:
        """Record the start of a curator run and return its id."""
        ...

    def finish_curator_run(
        self,
        run_id: int,
        tool_calls: list[dict[str, Any]],
        actions: list[str],
        error: str | None = None,
    ) -> None:
        """Record what a curator run called and changed."""
        ...

    def curator_runs(self, session_id: str, limit: int = 20) -> list[dict[str, Any]]:
        """The latest curator runs of a session, newest first."""
        ...

    def session_exchanges(self, session_id: str, limit: int = 400) -> list[Entity]:
        """The session's latest `limit` Chat_Exchange entities, in exchange order."""
        ...

    def session_ids_with_prefix(self, prefix: str, limit: int = 10) -> list[str]:
        """Ids of sessions starting with `prefix`, most recently updated first."""
        ...
