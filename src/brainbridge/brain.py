"""`Brain`: the one object adapters talk to. A thin async facade over the features."""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from brainbridge.acting import acting
from brainbridge.errors import InvalidInput, NotFound, SchemaError
from brainbridge.home import init_home
from brainbridge.model import CHAT_SESSION, PASSAGE, Entity, Hit, Relation, Subgraph, holds_at
from brainbridge.ports import Embedder, Sessions, Store
from brainbridge.search import HybridSearch, SearchOptions, SearchRequest
from brainbridge.search.indexer import BATCH, Indexer, Walk
from brainbridge.search.parts import vector_model
from brainbridge.store import location
from brainbridge.store.location import open_store
from brainbridge.store.sqlite.sessions import SqliteSessions
from brainbridge.store.sqlite.store import SqliteStore, clean_text
from brainbridge.transfer import Imported, export_lines, import_lines
from brainbridge.types import TYPES_FILE, append_types, load_types, validate

if TYPE_CHECKING:
    from brainbridge.forget import Forgetting
    from brainbridge.projects.digest import Digest
    from brainbridge.projects.disclose import Step

log = logging.getLogger(__name__)

T = TypeVar("T")
EntityRef = Entity | tuple[str, str] | str
# Types whose long descriptions (a pasted document) are also stored as passages.
SPLIT_TYPES = frozenset({"Document"})


class _OnStoreThread:
    """Calls methods of `target` on the store thread, whichever thread calls them.

    SQLite connections must not interleave transactions across threads; from the
    store thread itself the call is direct, from any other it waits for its turn.
    """

    def __init__(self, target: Any, brain: Brain) -> None:
        self._target = target
        self._brain = brain

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        # Only methods hop threads: a connection object is callable too, but is data here.
        if not inspect.ismethod(value) or name.startswith("__"):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self._brain._store_thread:
                return value(*args, **kwargs)
            return self._brain._executor.submit(value, *args, **kwargs).result()

        return call


class Brain:
    """A brain folder opened for use. Create with `await Brain.open(path)`."""

    def __init__(
        self,
        path: Path,
        store: SqliteStore,
        embedder: Embedder | None,
        background: bool,
        database_url: str | None = None,
        user: str | None = None,
        workspace: str | None = None,
    ) -> None:
        self.path = path
        self.database_url = database_url
        self.user, self.workspace = user, workspace  # who acts, on a PostgreSQL brain
        # One thread owns the connection so the event loop never blocks on SQLite.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="brain-store")
        self._store_thread = self._executor.submit(threading.get_ident).result()
        self._closed = False
        self.store: Store = _OnStoreThread(store, self)  # type: ignore[assignment]
        self.sessions: Sessions = _OnStoreThread(SqliteSessions(store.conn), self)  # type: ignore[assignment]
        self.embedder = embedder
        self.searcher = HybridSearch(store, embedder)
        self.types: dict[str, dict[str, Any]] = store.get_types()
        self.read_only = store.read_only  # a brain on a read-only disk answers, never writes
        background = background and not self.read_only
        self._indexer = (
            Indexer(functools.partial(open_store, path, database_url, user, workspace), embedder)
            if embedder and background
            else None
        )

    @property
    def closed(self) -> bool:
        """Whether `close` was called: work queued before it still runs, then finds this."""
        return self._closed

    @property
    def files(self) -> Path:
        """The folder of the files this brain writes as it runs (the curator's daily
        activity log and its day record, session locks): the brain folder, or for a person
        of a team brain a folder of their own in it, so one person's log never shows in
        another's export or page."""
        return self.path / "people" / self.user if self.user else self.path

    @classmethod
    async def open(
        cls,
        path: str | Path,
        embedder: Embedder | str | None = "auto",
        background_indexing: bool = True,
        sync_types: bool = True,
        database_url: str | None = None,
        user: str | None = None,
        workspace: str | None = None,
    ) -> Brain:
        """Open the brain folder at `path`, creating it if missing.

        `embedder` is an Embedder, a name for `load_embedder` ("auto", "minilm",
        "hashing", "none") or None for BM25 and graph only. `sync_types=False` keeps the
        entity types already stored instead of re-reading `entity_types.yaml` (for
        read-mostly paths such as the prompt hook; a new brain still reads it).
        `database_url` (else `BRAIN_DATABASE_URL`, else `[database] url` in the folder's
        config.toml) puts the brain in PostgreSQL; the folder still holds its config. An
        empty `database_url` means the SQLite file in the folder, whatever is configured.
        `user` and `workspace` (else BRAIN_USER and BRAIN_WORKSPACE) act as one person of
        a PostgreSQL brain, confined to their workspaces (`store/postgres/people.py`).
        Raises: BrainError if the folder or database cannot be opened; SchemaError for a bad
        `entity_types.yaml`.
        """
        folder = Path(path).expanduser()
        if folder.suffix == ".db":
            folder = folder.parent
        if isinstance(embedder, str) or embedder is None:
            embedder = await asyncio.to_thread(_load_embedder, embedder)
        url = database_url if database_url is not None else location.database_url(folder)
        env_user, env_workspace = acting()
        user = user if user is not None else env_user
        workspace = workspace if workspace is not None else env_workspace

        def _open() -> SqliteStore:
            init_home(folder)
            store = open_store(folder, url, user, workspace)
            if sync_types or not store.get_types():
                _sync_types(store, folder / TYPES_FILE)
            return store

        store = await asyncio.to_thread(_open)
        brain = cls(folder, store, embedder, background_indexing, url, user, workspace)
        if brain._indexer:
            brain._indexer.poke()
        return brain

    async def _run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    def _written(self) -> None:
        if self._indexer:
            self._indexer.poke()

    async def close(self) -> None:
        """Stop background work and close the database (a second call does nothing)."""
        if self._closed:
            return
        self._closed = True
        if self._indexer:
            await asyncio.to_thread(self._indexer.stop)
        await self._run(self.searcher.store.close)
        self._executor.shutdown(wait=True)

    async def __aenter__(self) -> Brain:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- schema -------------------------------------------------------------

    async def sync_schema(self) -> dict[str, dict[str, Any]]:
        """Re-read `entity_types.yaml` from the brain folder and apply it.

        Raises: SchemaError if the file is invalid (the previous schema stays in force).
        """
        types = await asyncio.to_thread(load_types, self.path / TYPES_FILE)
        await self._run(self.store.put_types, types)
        self.types = types
        return types

    # -- entities -----------------------------------------------------------

    async def upsert_entity(
        self,
        entity_type: str,
        name: str,
        attributes: dict[str, Any] | None = None,
        description: str | None = None,
    ) -> Entity:
        """Create or update an entity; attributes merge into what is stored.

        A `description` key in `attributes` is taken as the description.
        Raises: SchemaError for an unknown type or a badly typed attribute; InvalidInput for
        an empty or over-long name.
        """
        attrs = dict(attributes or {})
        if description is None and isinstance(attrs.get("description"), str):
            description = attrs.pop("description")
        validate(self.types, entity_type, attrs)
        if entity_type in SPLIT_TYPES and description is not None and PASSAGE in self.types:
            # A long document is searched by passage, written with it in one transaction.
            from brainbridge.vault.passages import document_parts

            row = (entity_type, name, description, attrs)
            parts = [document_parts(name, description)]
            ent = (await self._run(self.store.upsert_with_parts, [row], parts))[0]
        else:
            ent = await self._run(self.store.upsert_entity, entity_type, name, description, attrs)
        self._written()
        return ent

    async def upsert_many(
        self, rows: Sequence[tuple[str, str, str | None, dict[str, Any] | None]]
    ) -> list[Entity]:
        """Upsert (type, name, description, attributes) rows in one transaction.

        Raises: SchemaError (nothing is written).
        """
        for etype, _, _, attrs in rows:
            validate(self.types, etype, attrs or {})
        ents = await self._run(self.store.upsert_many, rows)
        self._written()
        return ents

    async def get_entity(self, entity_type: str, name: str) -> Entity | None:
        """The entity with this type and name, or None."""
        return await self._run(self.store.get_entity, entity_type, name)

    async def delete_entity(self, entity_type: str, name: str) -> bool:
        """Delete an entity and everything attached to it (its passages too); False if it
        did not exist."""
        from brainbridge.vault.passages import name_prefixes

        def _delete() -> bool:
            deleted = self.store.delete_entity(entity_type, name)
            # Passages are named after their owner: another type's entity of the same
            # name may own them still.
            others = [e for e in self.store.find_by_name(name.strip()) if e.name == name.strip()]
            if deleted and entity_type != PASSAGE and not others:
                self.store.upsert_with_parts([], [(PASSAGE, name_prefixes(name.strip()), [])])
            return deleted

        return await self._run(_delete)

    async def forget(self, item: EntityRef, preview: bool = True, via: str = "api") -> Forgetting:
        """What forgetting `item` removes (`preview`), or remove it and what was derived
        from it, leaving an audit line without its content (see `brainbridge.forget`).
        `("Chat_Session", id)` names a session, with or without its node.

        Raises: NotFound; InvalidInput for an ambiguous name; StoreBusy.
        """
        from brainbridge import forget

        sid = forget.session_ref(item)
        # A session may have no node yet (the curator makes it): its row is enough.
        target = await (self.get_entity(CHAT_SESSION, sid) if sid else self.resolve(item))
        plan = await self._run(forget.plan, self, item, target)
        if preview:
            return plan
        done = await self._run(forget.carry_out, self, plan, via)
        self._written()
        return done

    async def resolve(self, ref: EntityRef) -> Entity:
        """Find an entity from an Entity, a (type, name) pair or a unique name.

        Raises: NotFound; InvalidInput if a bare name matches several entities.
        """
        if isinstance(ref, Entity):
            return ref
        if isinstance(ref, tuple):
            ent = await self.get_entity(*ref)
            if ent is None:
                raise NotFound(f"no {ref[0]} named {ref[1]!r}")
            return ent
        matches = await self._run(self.store.find_by_name, ref)
        if not matches:
            near = await self._run(self.store.similar_names, ref)
            hint = f"; did you mean {', '.join(repr(n) for n in near)}?" if near else ""
            raise NotFound(f"no entity named {ref!r}{hint}")
        if len(matches) > 1:
            kinds = ", ".join(f"{m.type}:{m.name}" for m in matches)
            raise InvalidInput(f"{ref!r} is ambiguous ({kinds}); give the type as TYPE:NAME")
        return matches[0]

    async def relate(
        self,
        src: EntityRef,
        relation_type: str,
        dst: EntityRef,
        attributes: dict[str, Any] | None = None,
    ) -> Relation:
        """Link two existing entities with a typed relation.

        Raises: NotFound if either end is missing; InvalidInput for an ambiguous name.
        """
        a, b = await self.resolve(src), await self.resolve(dst)
        return await self._run(
            self.store.relate, (a.type, a.name), relation_type, (b.type, b.name), attributes
        )

    async def unrelate(
        self, src: EntityRef, relation_type: str, dst: EntityRef | None = None
    ) -> int:
        """Delete `relation_type` relations from `src` (only those to `dst`, when given).

        Raises: NotFound if an end does not exist; InvalidInput for an ambiguous name.
        """
        a = await self.resolve(src)
        b = await self.resolve(dst) if dst is not None else None
        return await self._run(
            self.searcher.store.unrelate,
            (a.type, a.name),
            relation_type,
            (b.type, b.name) if b else None,
        )

    async def subgraph(
        self,
        entity: EntityRef,
        hops: int = 2,
        limit: int = 200,
        as_of: str | None = None,
        superseded: bool = True,
    ) -> Subgraph:
        """The entity, everything within `hops` relations of it and the relations among them.

        Everything by default, what has ended included; `superseded=False` leaves out what
        no longer holds (on `as_of`, YYYY-MM-DD, or now). The root is always there.
        Raises: NotFound; InvalidInput for a malformed `as_of`.
        """
        root = await self.resolve(entity)
        day = _day(as_of)

        def _walk() -> Subgraph:
            near = self.store.neighbors([root.id], hops, limit)
            ents = {
                i: e
                for i, e in self.store.get_entities(list(near)).items()
                if i == root.id or holds_at(e, day, superseded)
            }
            nodes = tuple(ents[i] for i in sorted(near, key=lambda i: (near[i], i)) if i in ents)
            return Subgraph(nodes, tuple(self.store.relations_among(list(ents))))

        return await self._run(_walk)

    async def invalidate(
        self, entity: EntityRef, on: str | None = None, by: str = "user"
    ) -> Entity:
        """Mark what `entity` says as no longer true from `on` (YYYY-MM-DD, default today).

        It stays in the brain and in `superseded=True` searches; current searches leave it out.
        Raises: NotFound; InvalidInput for an ambiguous name or a malformed date.
        """
        ent = await self.resolve(entity)
        day = _day(on) or date.today().isoformat()
        attrs: dict[str, Any] = {"valid_to": day, "superseded_by": by}
        if ent.type == "Commitment" and ent.attributes.get("status") == "open":
            attrs["status"] = "dropped"
        return await self.upsert_entity(ent.type, ent.name, attrs)

    # -- who is who ---------------------------------------------------------

    async def merges(self, status: str | None = None) -> list[dict[str, Any]]:
        """Merges, newest first: pending (the review queue), merged, rejected, unmerged."""
        return await self._run(self.store.merges, status)

    async def merge(self, keep: EntityRef, other: EntityRef) -> dict[str, Any]:
        """Fold `other` into `keep`: its relations move, its name becomes an alias.

        Undo with `unmerge(id)`. Raises: NotFound; InvalidInput for different types.
        """
        a, b = await self.resolve(keep), await self.resolve(other)
        if a.type != b.type:
            raise InvalidInput(f"cannot merge a {b.type} into a {a.type}")
        done = await self._run(self.store.merge, a.type, a.name, b.name)
        self._written()
        return done

    async def decide_merge(self, merge_id: int, accept: bool) -> dict[str, Any]:
        """Accept (merge) or reject (keep apart) a proposed merge.

        Raises: NotFound; InvalidInput if it is not pending.
        """
        fn = self.store.accept_merge if accept else self.store.reject_merge
        done = await self._run(fn, merge_id)
        self._written()
        return done

    async def unmerge(self, merge_id: int) -> dict[str, Any]:
        """Undo a merge: both entities as they were, relations included.

        Raises: NotFound; InvalidInput if it is not in force.
        """
        done = await self._run(self.store.unmerge, merge_id)
        self._written()
        return done

    # -- search -------------------------------------------------------------

    async def search(
        self,
        query: str,
        num_results: int = 5,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
        options: SearchOptions | None = None,
        as_of: str | None = None,
        superseded: bool = False,
    ) -> list[Hit]:
        """Hybrid search (BM25 + vectors + graph) with a relevance floor; any text is valid.

        What holds now by default; `as_of` (YYYY-MM-DD) asks what held that day, and
        `superseded=True` keeps facts that have since been replaced.
        Raises: InvalidInput for a malformed `as_of`.
        """
        request = SearchRequest(
            query, num_results, entity_types, exclude_types, _day(as_of), superseded
        )
        return (await self.search_many([request], options))[0]

    def prepare_search(self, queries: Sequence[str]) -> None:
        """Start embedding the queries a search will likely run soon, on the embedding
        thread (`HybridSearch.prepare`). Call from the store's thread (inside `_run`)."""
        self.searcher.prepare([clean_text(q) for q in queries])

    async def search_many(
        self, requests: Sequence[SearchRequest], options: SearchOptions | None = None
    ) -> list[list[Hit]]:
        """Several searches in one go, one result list each (a query is embedded once).

        Raises: InvalidInput for a malformed `as_of` (checked here, so every caller's is).
        """
        cleaned = [replace(r, query=clean_text(r.query), as_of=_day(r.as_of)) for r in requests]
        return await self._run(self.searcher.search_many, cleaned, options)

    async def recall(
        self,
        query: str,
        num_results: int = 5,
        entity_types: Sequence[str] | None = None,
        exclude_types: Sequence[str] | None = None,
        as_of: str | None = None,
        superseded: bool = False,
    ) -> dict[str, Any]:
        """Search shaped for an agent: {"query", "results": [entity dicts + score], "count"}.

        Raises: InvalidInput for a malformed `as_of`.
        """
        hits = await self.search(
            query, num_results, entity_types, exclude_types, as_of=as_of, superseded=superseded
        )
        results = [h.to_dict() for h in hits]
        return {"query": query, "results": results, "count": len(results)}

    async def brain_context(
        self, project_root: str, recent_files: Sequence[str] | None = None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """Entries that matter for a coding project: [{slug, title, doc_path, excerpt, ...}]."""
        from brainbridge.projects.context import brain_context

        entries = await self._run(brain_context, self.store, project_root, recent_files, limit)
        return [e.to_dict() for e in entries]

    async def project_digest(self, cwd: str, exclude_session: str = "") -> Digest:
        """What happened in the project at `cwd` (its git root), as an index by id."""
        from brainbridge.projects.digest import project_digest
        from brainbridge.projects.root import project_root

        root = project_root(cwd)
        return await self._run(project_digest, self.store, self.sessions, root, exclude_session)

    async def note_session_project(self, session_id: str, cwd: str) -> bool:
        """Record the project (git root of `cwd`) a session runs in; True if it changed."""
        from brainbridge.projects.root import project_root
        from brainbridge.projects.sessions import note_project

        changed = await self._run(note_project, self.store, session_id, project_root(cwd))
        if changed:
            self._written()
        return changed

    async def item_text(self, item: str | int) -> str:
        """Any entity by id (`12`, `#12`) in full, as text. Raises: NotFound, InvalidInput."""
        from brainbridge.projects.disclose import item_text, parse_id

        eid = parse_id(item)
        if eid is None:
            raise InvalidInput(f"{item!r} is not an item id (a number such as 12 or #12)")
        return await self._run(item_text, self.store, eid)

    async def timeline(self, session: str) -> tuple[str, list[Step]]:
        """A session's (id, #id or prefix) exchanges and observations in order.

        Raises: NotFound.
        """
        from brainbridge.projects.disclose import session_id_of, timeline

        def _walk() -> tuple[str, list[Step]]:
            sid = session_id_of(self.store, self.sessions, session)
            return sid, timeline(self.store, self.sessions, sid)

        return await self._run(_walk)

    # -- maintenance --------------------------------------------------------

    async def stats(self) -> dict[str, Any]:
        """Counts per type, relations, vectors, pending vectors, sessions and file size."""

        def _stats() -> dict[str, Any]:
            out = self.store.stats()
            out["pending_vectors"] = (
                self.store.count_pending_vectors(vector_model(self.embedder))
                if self.embedder
                else None
            )
            out["embedder"] = self.embedder.name if self.embedder else "none"
            if self.user:  # a person of a team brain: the counts are of what they see
                out["person"] = self.user
            return out

        return await self._run(_stats)

    async def index_vectors(self, progress: Callable[[int, int], None] | None = None) -> int:
        """Embed everything still missing a vector now; return how many were embedded.

        The model runs off the store's thread, a batch at a time: a search meanwhile answers
        from BM25 and the vectors already written instead of waiting for the rest.
        """
        if self.embedder is None:
            return 0
        walk = Walk(self.embedder)
        total = await self._run(self.store.count_pending_vectors, walk.model) if progress else 0
        while batch := await self._run(self.store.pending_vectors, BATCH, walk.model, walk.after):
            embedded = await asyncio.to_thread(walk.embed, batch)
            wrote = walk.wrote(
                batch, await self._run(self.store.put_vectors, walk.model, *embedded)
            )
            if wrote and progress:
                progress(walk.done, total)
        return walk.done

    async def wait_for_vectors(self, timeout: float | None = None) -> bool:
        """Wait until background embedding has caught up; True if it has."""
        if self._indexer is None:
            return self.embedder is None
        return await asyncio.to_thread(self._indexer.wait_idle, timeout)

    async def export_jsonl(self, vectors: bool = False) -> list[str]:
        """The whole brain as JSON Lines (`transfer.export_lines`)."""
        return await self._run(lambda: list(self.iter_export(vectors)))

    def iter_export(self, vectors: bool = False) -> Iterator[str]:
        """Export lines lazily; only for synchronous callers outside the event loop."""
        return export_lines(self.store, self.files, vectors)

    async def import_jsonl(
        self, lines: Iterable[str], progress: Callable[[int], None] | None = None
    ) -> dict[str, int]:
        """Import exported JSON Lines; what was stored, per kind (`import_all`)."""
        return (await self.import_all(lines, progress)).counts

    async def import_all(
        self,
        lines: Iterable[str],
        progress: Callable[[int], None] | None = None,
        skip_bad: bool = False,
    ) -> Imported:
        """Import exported JSON Lines; searchable by BM25 at once, vectors follow in background.
        Idempotent: the same lines again add nothing.

        Raises: InvalidInput naming the first bad line (earlier lines are kept), unless
        `skip_bad`, which goes on and lists the bad lines.
        """
        known = set(self.types)
        try:
            return await self._run(
                import_lines,
                self.store,
                lines,
                self.types,
                progress,
                folder=self.files,
                skip_bad=skip_bad,
            )
        finally:
            self._written()
            # Types the export brought (stored by the import) go into entity_types.yaml
            # too, or the next open, which re-reads the file, would drop them.
            added = {n: spec for n, spec in self.types.items() if n not in known}
            if added:
                await asyncio.to_thread(append_types, self.path / TYPES_FILE, added)


def _load_embedder(name: str | None) -> Embedder | None:
    """`load_embedder`, imported only when asked for: NumPy and ONNX stay out of the
    hooks' cold path, which opens the brain with no embedder."""
    if name is None:
        return None
    from brainbridge.embed import load_embedder

    return load_embedder(name)


def _day(value: str | None) -> str | None:
    """A YYYY-MM-DD day as given, or None. Raises: InvalidInput."""
    if value is None:
        return None
    try:
        return date.fromisoformat(str(value).strip()[:10]).isoformat()
    except ValueError:
        raise InvalidInput(f"not a date: {value!r} (use YYYY-MM-DD)") from None


def _sync_types(store: SqliteStore, path: Path) -> None:
    """Apply `entity_types.yaml` on open; a broken file keeps the schema already in force."""
    try:
        types = load_types(path)
        if types != store.get_types():  # a write lock only when something changed
            store.put_types(types)
    except SchemaError as exc:
        if not store.get_types():
            raise
        log.warning("%s; keeping the entity types already in force", exc)
