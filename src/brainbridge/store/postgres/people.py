"""People and workspaces in a PostgreSQL brain: who may read and write what.

Every row belongs to a workspace (schema migration 003). Each person has a private
workspace named after them and belongs to the shared one, `main`, where everything
written before people were added lives. A person acts through a database role of their
own (`SET ROLE`), which holds no privilege on the tables: it reads and writes through
views (schema `brain_people`, first on its search path) confined to the
workspaces the person belongs to: the server enforces it, so no code path of ours can
skip it. Writes go to one workspace (their own unless they choose a shared one they may
write). The brain's owner (the role that created the tables) is not confined: it is the
administrator, and `brain users` runs as it.

A person's token (for `brain serve`) is shown once and stored as its SHA-256 hash; the
token is 32 random bytes, so a slow hash would add nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

from brainbridge.errors import BrainError, InvalidInput, NotFound
from brainbridge.store.postgres.schema import PEOPLE
from brainbridge.store.sqlite.writes import now_iso, write_tx

SHARED = "main"
NAME = re.compile(r"^[a-z][a-z0-9_-]{0,31}$")


@dataclass(frozen=True)
class Person:
    name: str
    workspaces: dict[str, bool]  # workspace: may write
    created_at: str
    revoked_at: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "workspaces": self.workspaces,
            "created_at": self.created_at,
            "revoked": self.revoked_at is not None,
            "revoked_at": self.revoked_at,
        }


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _role_of(conn: Any, name: str) -> str:
    """The role name for person `name` in this database (roles are server-wide, so the
    database is part of it), at most PostgreSQL's 63 bytes."""
    db = conn.execute("SELECT current_database()").fetchone()[0]
    base = re.sub(r"[^a-z0-9_]", "_", str(db).lower())[:24]
    return f"brain_{base}_{name}"[:63]


def _members_role(conn: Any) -> str:
    return _role_of(conn, "people")


def _check_name(name: str) -> str:
    name = name.strip().lower()
    if not NAME.match(name) or name == SHARED or name == "people":
        raise InvalidInput(
            f"a user name is 1-32 lowercase letters, digits, '-' or '_', starting with a"
            f" letter, and not {SHARED!r} (got {name!r})"
        )
    return name


def add(conn: Any, name: str, shared: str = "write") -> str:
    """Add a person (their role, private workspace and membership of `main`, which they
    may "write", only "read", or "none"); their new token, shown once.

    Raises: InvalidInput for a bad name or one taken; BrainError when this login may not
    create roles (it needs CREATEROLE, or to be the server's superuser).
    """
    name = _check_name(name)
    if shared not in ("write", "read", "none"):
        raise InvalidInput(f"shared access is write, read or none (got {shared!r})")
    token = "bb_" + secrets.token_urlsafe(32)
    role, group = _role_of(conn, name), _members_role(conn)
    try:
        with write_tx(conn):
            if conn.execute("SELECT 1 FROM brain_users WHERE name = ?", (name,)).fetchone():
                raise InvalidInput(f"there is already a user named {name!r}")
            if conn.execute("SELECT 1 FROM brain_members WHERE workspace = ?", (name,)).fetchone():
                raise InvalidInput(f"{name!r} is the name of a shared workspace")
            _ensure_group(conn, group)
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = ?", (role,)).fetchone():
                conn.execute(f"GRANT {_ident(group)} TO {_ident(role)}")
            else:
                conn.execute(f"CREATE ROLE {_ident(role)} NOLOGIN IN ROLE {_ident(group)}")
            conn.execute(f"GRANT {_ident(role)} TO CURRENT_USER")  # so it can SET ROLE
            conn.execute(
                "INSERT INTO brain_users(name, role, token_hash, created_at) VALUES (?, ?, ?, ?)",
                (name, role, token_hash(token), now_iso()),
            )
            conn.execute(
                "INSERT INTO brain_members(user_name, workspace, can_write) VALUES (?, ?, true)",
                (name, name),
            )
            if shared != "none":
                conn.execute(
                    "INSERT INTO brain_members(user_name, workspace, can_write) VALUES (?, ?, ?)",
                    (name, SHARED, shared == "write"),
                )
    except BrainError:
        raise
    except Exception as exc:  # sqlite3-style errors from PgConnection
        if "permission denied" in str(exc) or "must have" in str(exc):
            raise BrainError(
                f"this database login may not create roles, which people need ({exc});"
                " run `brain users` as the brain's owner with CREATEROLE"
            ) from exc
        raise
    return token


def grant(conn: Any) -> None:
    """Give the people's group role what it needs on every table (again after a
    migration adds one); nothing when there are no people yet."""
    group = _members_role(conn)
    if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = ?", (group,)).fetchone():
        return
    _ensure_group(conn, group)


def _ensure_group(conn: Any, group: str) -> None:
    """The people's group role and its privileges: the views in `brain_people` (never the
    tables behind them), the shared entity types, and the little the views read to know
    who is asking (never the token hashes)."""
    g = _ident(group)
    if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = ?", (group,)).fetchone():
        conn.execute(f"CREATE ROLE {g} NOLOGIN")
    conn.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {g}")
    conn.execute(f"GRANT USAGE ON SCHEMA {PEOPLE} TO {g}")
    conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {PEOPLE} TO {g}")
    conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON entity_types TO {g}")
    conn.execute(f"GRANT SELECT (name, role, revoked_at) ON brain_users TO {g}")
    conn.execute(f"GRANT SELECT ON brain_members, _migrations TO {g}")
    conn.execute(f"GRANT EXECUTE ON FUNCTION brain_term_share(smallint, text) TO {g}")
    conn.execute(f"GRANT EXECUTE ON FUNCTION brain_term_rows(smallint, text[], integer) TO {g}")
    conn.execute(f"GRANT EXECUTE ON FUNCTION brain_term_counts(text[]) TO {g}")


def join(conn: Any, name: str, workspace: str, can_write: bool = True) -> None:
    """Make person `name` a member of the shared `workspace` (created by its first
    member), able to write it or only read it; again, to change that.

    Raises: NotFound for no such person; InvalidInput for a bad workspace name or
    another person's private workspace.
    """
    name, workspace = name.strip().lower(), workspace.strip().lower()
    if not NAME.match(workspace):
        raise InvalidInput(
            f"a workspace name is 1-32 lowercase letters, digits, '-' or '_' (got {workspace!r})"
        )
    with write_tx(conn):
        if not conn.execute("SELECT 1 FROM brain_users WHERE name = ?", (name,)).fetchone():
            raise NotFound(f"no user named {name!r}")
        if (
            workspace != name
            and conn.execute("SELECT 1 FROM brain_users WHERE name = ?", (workspace,)).fetchone()
        ):
            raise InvalidInput(f"{workspace!r} is a person's private workspace")
        conn.execute(
            "INSERT INTO brain_members(user_name, workspace, can_write) VALUES (?, ?, ?)"
            " ON CONFLICT (user_name, workspace) DO UPDATE SET can_write = excluded.can_write",
            (name, workspace, can_write),
        )


def leave(conn: Any, name: str, workspace: str) -> bool:
    """Take person `name` out of the shared `workspace`; False if they were not in it.

    Raises: InvalidInput for their own private workspace.
    """
    name, workspace = name.strip().lower(), workspace.strip().lower()
    if workspace == name:
        raise InvalidInput("a person always keeps their own workspace")
    with write_tx(conn):
        cur = conn.execute(
            "DELETE FROM brain_members WHERE user_name = ? AND workspace = ?", (name, workspace)
        )
    return cur.rowcount > 0


def people(conn: Any) -> list[Person]:
    rows = conn.execute(
        "SELECT name, created_at, revoked_at FROM brain_users ORDER BY name"
    ).fetchall()
    members: dict[str, dict[str, bool]] = {}
    for r in conn.execute(
        "SELECT user_name, workspace, can_write FROM brain_members ORDER BY workspace"
    ):
        members.setdefault(r[0], {})[r[1]] = bool(r[2])
    return [Person(r[0], members.get(r[0], {}), r[1], r[2]) for r in rows]


def revoke(conn: Any, name: str) -> bool:
    """Revoke a person's token and access (their rows stay, for the owner to see); False
    when they were revoked already.

    Raises: NotFound when there is no such person.
    """
    with write_tx(conn):
        row = conn.execute(
            "SELECT revoked_at FROM brain_users WHERE name = ?", (name.strip().lower(),)
        ).fetchone()
        if row is None:
            raise NotFound(f"no user named {name!r}")
        if row[0] is not None:
            return False
        conn.execute(
            "UPDATE brain_users SET revoked_at = ? WHERE name = ?",
            (now_iso(), name.strip().lower()),
        )
    return True


def has_people(conn: Any) -> bool:
    return conn.execute("SELECT 1 FROM brain_users LIMIT 1").fetchone() is not None


def person_of_token(conn: Any, token: str) -> str | None:
    """The name of the person whose token this is, or None (unknown or revoked)."""
    row = conn.execute(
        "SELECT name FROM brain_users WHERE token_hash = ? AND revoked_at IS NULL",
        (token_hash(token),),
    ).fetchone()
    return str(row[0]) if row else None


def act_as(conn: Any, name: str, workspace: str | None = None) -> str:
    """Make this connection act as person `name`, writing to `workspace` (their own by
    default); the workspace written. Kept across reconnects.

    Raises: NotFound for an unknown or revoked person; InvalidInput for a workspace they
    may not write.
    """
    name = name.strip().lower()
    row = conn.execute(
        "SELECT role FROM brain_users WHERE name = ? AND revoked_at IS NULL", (name,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no active user named {name!r} in this brain")
    target = (workspace or name).strip()
    may = conn.execute(
        "SELECT can_write FROM brain_members WHERE user_name = ? AND workspace = ?",
        (name, target),
    ).fetchone()
    if may is None or not may[0]:
        raise InvalidInput(f"{name} may not write to workspace {target!r}")
    conn.keep_setting(f"SET ROLE {_ident(row[0])}")
    conn.keep_setting(f"SET brainbridge.workspace = '{target}'")
    conn.keep_setting(f"SET search_path = {PEOPLE}, public")  # the views, then the rest
    return target


def add_viewer(conn: Any, workspace: str) -> str:
    """A person of `workspace` alone (`brain migrate --workspace` checks its copy through
    their eyes, acting in it: the views, as for everyone, show them its history
    too); their name. Remove them with `remove_viewer`."""
    name = f"check-{os.getpid()}-{secrets.token_hex(3)}"
    add(conn, name, shared="none")
    with write_tx(conn):
        conn.execute(
            "INSERT INTO brain_members(user_name, workspace, can_write) VALUES (?, ?, true)",
            (name, workspace),
        )
    return name


def remove_viewer(conn: Any, name: str) -> None:
    with write_tx(conn):
        conn.execute("DELETE FROM brain_users WHERE name = ?", (name,))
        conn.execute(f"DROP ROLE IF EXISTS {_ident(_role_of(conn, name))}")
