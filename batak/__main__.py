"""Command line: ``python -m batak {selfplay,play,bench} …``."""

from batak.cli import main

raise SystemExit(main())
