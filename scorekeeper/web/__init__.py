"""The server-rendered pages."""

from scorekeeper.web.views import bp

__all__ = ["bp"]
