"""The JSON API under /api/v1."""

from scorekeeper.api import caching
from scorekeeper.api.views import bp, register_error_pages

# One place for the whole blueprint, errors included: no view needs to remember it.
bp.after_request(caching.keys_stay_out_of_caches)

__all__ = ["bp", "register_error_pages"]
