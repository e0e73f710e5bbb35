"""`python -m boardgen` runs the command line."""

from boardgen.cli import main

main()
