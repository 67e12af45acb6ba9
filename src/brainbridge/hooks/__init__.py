"""Claude Code hooks: SessionStart, UserPromptSubmit and Stop, failing open."""
