"""Putting a curator behind a bridge: the one call adapters make."""

from __future__ import annotations

from typing import TYPE_CHECKING

from brainbridge.curator.config import CuratorConfig
from brainbridge.curator.curator import Curator
from brainbridge.ports import LLM

if TYPE_CHECKING:
    from brainbridge.brain import Brain
    from brainbridge.bridge import Bridge


async def attach_curator(
    brain: Brain, bridge: Bridge, llm: LLM | None = None, config: CuratorConfig | None = None
) -> Curator:
    """A curator that runs on the bridge's cadence; `bridge.drain()` then covers its runs.

    Attaching twice to one bridge returns the curator already attached.
    """
    curator = attached(brain, bridge)
    if curator is None:
        curator = Curator(brain, llm, config)
        bridge.config.after_observe.append(curator.after_observe)
    return curator


def attached(brain: Brain, bridge: Bridge) -> Curator | None:
    """The curator running behind `bridge` on `brain`, if one is."""
    for hook in bridge.config.after_observe:
        owner = getattr(hook, "__self__", None)
        if isinstance(owner, Curator) and owner.brain is brain:
            return owner
    return None


def curator_for(brain: Brain, bridge: Bridge) -> Curator:
    """The attached curator (its LLM and settings), or a local one for a manual run."""
    return attached(brain, bridge) or Curator(brain)
