"""The house rules' part of the OpenAPI document: the ``rules`` object of a request."""

from __future__ import annotations

from typing import Any


def house_rules_schema() -> dict[str, Any]:
    """Return the JSON schema of the house rules a session is started (or a check made) with."""
    return {
        "type": "object",
        "description": "House rules, every key optional (defaults in "
        'GET /api/v1/variants): "end": {"target": N} or {"games": N}; '
        'Treppenrommé\'s "romme_doubling": "winner" or "loser". German '
        'Rummy: "end": {"limit": -N} (default {"limit": -500}) or '
        '{"games": N}, and the keys below.',
        # German Rummy's house rules; the other systems have none of them.
        "properties": {
            "opening": {
                "type": "integer",
                "minimum": 0,
                "default": 40,
                "description": "German Rummy: what an opening must count at the least; 0 for "
                "none (G3).",
            },
            "joker_in_hand": {
                "enum": [20, 25, 30],
                "default": 30,
                "description": "German Rummy: what a joker left in a hand costs (G5).",
            },
            "hand_romme_doubles": {
                "type": "boolean",
                "default": False,
                "description": "German Rummy: a Hand-Rommé doubles every loser's minus points "
                "(G6).",
            },
            "joker_swap_from_set": {
                "enum": ["any", "four"],
                "default": "any",
                "description": 'German Rummy: "four" (the German Skat Association\'s reading) '
                "takes a joker from a set only when the set becomes four natural cards (G4).",
            },
        },
    }
