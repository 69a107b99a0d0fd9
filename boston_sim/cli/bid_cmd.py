"""CLI command module (bid_cmd): placeholder until its owner fills it in."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
