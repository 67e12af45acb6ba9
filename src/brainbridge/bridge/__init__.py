"""The bridge: ambient brain context before each turn, episodes and facts after it."""

from brainbridge.bridge.bridge import Bridge, BridgeConfig, Enrichment, Observation

__all__ = ["Bridge", "BridgeConfig", "Enrichment", "Observation"]
