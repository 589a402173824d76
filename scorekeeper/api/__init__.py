"""The JSON API under /api/v1."""

from scorekeeper.api.views import bp, register_error_pages

__all__ = ["bp", "register_error_pages"]
