"""The server-rendered pages: one blueprint, its routes in one module per page area."""

# Importing a page area registers its routes, filters and hooks on the blueprint.
from scorekeeper.web import (  # noqa: F401
    entries,
    errors,
    evenings,
    filters,
    game_end,
    groups,
    looking_back,
    offline,
    seating,
    session_page,
    start,
    trust,
)
from scorekeeper.web.blueprint import bp

__all__ = ["bp"]
