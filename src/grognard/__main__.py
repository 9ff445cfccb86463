"""``python -m grognard`` runs the command line."""

from grognard.cli import entry

entry()
