"""Storage backends. Only this package speaks SQL."""
