"""The curator: session titles, running summaries and the daily activity log."""

from brainbridge.curator.config import CuratorConfig, curator_config
from brainbridge.curator.curator import MANUAL, Curator, CuratorRun
from brainbridge.curator.local import Exchange, local_summary, local_title
from brainbridge.curator.tools import TOOLS

__all__ = [
    "MANUAL",
    "TOOLS",
    "Curator",
    "CuratorConfig",
    "CuratorRun",
    "Exchange",
    "curator_config",
    "local_summary",
    "local_title",
]
