"""Context for coding agents: what the brain knows about the project at hand.

Empty on purpose: the hooks import `projects.root` on their cold path, and importing
this package must not pull in the ranking code (`projects.context`) with it.
"""
