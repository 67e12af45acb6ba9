"""Fakes shared by the test suite; the one remote thing we fake is an LLM API."""
