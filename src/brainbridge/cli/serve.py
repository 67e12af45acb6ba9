"""`brain serve` (HTTP API, web page, /mcp) and `brain mcp` (stdio)."""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import click

from brainbridge.cli.common import App, fail, guarded, pass_app, require
from brainbridge.hooks.runner import SERVER_FILE


def _write_server_file(home: Path, url: str, token: str) -> Path:
    path = home / SERVER_FILE
    home.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        json.dump({"url": url, "token": token, "pid": os.getpid()}, fh)
    return path


def _remove_server_file(path: Path) -> None:
    try:
        if json.loads(path.read_text()).get("pid") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8765, show_default=True, type=int)
@click.option("--token", envvar="BRAIN_TOKEN", help="Bearer token (required off loopback).")
@pass_app
def serve(app: App, host: str, port: int, token: str | None) -> None:
    """Run the HTTP API, the web page and MCP at /mcp; hooks use it as their fast path."""

    from brainbridge.api.app import ServerConfig, create_app, is_loopback

    settings = guarded(lambda: app.settings)
    if not is_loopback(host) and not token:
        fail(f"binding to {host} needs a token: pass --token or set BRAIN_TOKEN", 2)
    token = token or secrets.token_urlsafe(24)
    # A bad provider or [curator] setting fails here, not mid-start-up.
    llm = guarded(settings.make_llm)
    curator = guarded(settings.curator_config)
    config = ServerConfig(
        settings.brain_path,
        host,
        port,
        token,
        settings.embedder,
        lambda brain: settings.make_bridge(brain, llm),
        directives=guarded(settings.directive_config),
    )
    _add_curator(config, llm, curator)
    if _in_use(host, port):
        fail(f"port {port} on {host} is in use (another brain serve?); pass --port", 4)
    api = guarded(lambda: create_app(config))
    url = f"http://{host if ':' not in host else f'[{host}]'}:{port}"
    path = settings.brain_path / SERVER_FILE

    def started() -> None:
        # Only once listening: a server that cannot bind must not point hooks at
        # itself, nor take server.json from one already running.
        _write_server_file(settings.brain_path, url, token)
        click.echo(f"brain serving {settings.brain_path} at {url}/#token={token}", err=True)

    try:
        listening = _run_server(api, host, port, started)
    finally:
        _remove_server_file(path)
    if not listening:
        fail(f"brain serve could not start on {host}:{port} (see the message above)", 1)


def _in_use(host: str, port: int) -> bool:
    """Whether another process listens on host:port (uvicorn would print only its errno)."""
    import errno
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as sock:
        try:
            sock.bind((host, port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


def _run_server(api, host: str, port: int, on_started) -> bool:  # type: ignore[no-untyped-def]
    """Serve until stopped; False if the server never started listening."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets=None) -> None:  # type: ignore[no-untyped-def]
            await super().startup(sockets)
            if self.started and not self.should_exit:
                on_started()

        def handle_exit(self, sig, frame) -> None:  # type: ignore[no-untyped-def]
            super().handle_exit(sig, frame)
            # uvicorn re-raises the signal after shutting down, and a default SIGTERM
            # ends the process before server.json is removed: a service manager's stop
            # is a normal, clean exit here.
            self._captured_signals.clear()

    server = Server(uvicorn.Config(api, host=host, port=port, log_level="warning"))
    server.run()
    return server.started


def _add_curator(config, llm, curator) -> None:  # type: ignore[no-untyped-def]
    from brainbridge.curator.wiring import attach_curator

    config.on_start.append(lambda brain, bridge: attach_curator(brain, bridge, llm, curator))


@click.command()
@pass_app
def mcp(app: App) -> None:
    """Serve the brain's tools over MCP on stdio (`claude mcp add --scope user brain -- brain mcp`)."""
    from brainbridge.mcp.stdio import serve, server_for

    settings = guarded(lambda: app.settings)
    guarded(lambda: require("mcp"))
    guarded(lambda: serve(lambda: server_for(settings)))
