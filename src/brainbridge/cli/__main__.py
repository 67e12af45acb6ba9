"""`python -m brainbridge.cli`: the same as the `brain` command."""

from brainbridge.cli.main import main

main()
