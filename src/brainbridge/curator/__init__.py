"""The curator: session titles, running summaries and the daily activity log."""

from brainbridge.curator.config import CuratorConfig, curator_config
from brainbridge.curator.curator import MANUAL, Curator, CuratorRun
from brainbridge.curator.local import local_summary, local_title
from brainbridge.curator.text import Exchange
from brainbridge.curator.tools import TOOLS
from brainbridge.curator.wiring import attach_curator

__all__ = [
    "MANUAL",
    "TOOLS",
    "Curator",
    "CuratorConfig",
    "CuratorRun",
    "Exchange",
    "attach_curator",
    "curator_config",
    "local_summary",
    "local_title",
]
