"""The OpenAPI schema of the rule systems and their house rules, built from the rules core.

Nothing here names a rule system or a house rule: each rule system in the registry lists its
house rules (``Variant.HOUSE_RULES``), and each house rule knows its key, default, allowed values
and description. A new rule system appears in the document without a change here.
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper import rules

# The API's documentation is in English.
LANGUAGE = "en"


def variant_name_schema() -> dict[str, Any]:
    """Return the schema of a rule system's name: one of the registry's, its default first."""
    return {
        "enum": list(rules.VARIANTS),
        "default": rules.DEFAULT_VARIANT,
        "description": "The rule system.",
    }


def house_rule_schema(rule: rules.HouseRule) -> dict[str, Any]:
    """Return the schema of one house rule's value: its type or values, default, description."""
    schema: dict[str, Any]
    values = [option.value for option in rule.options]
    if rule.whole is not None:
        low, _high = rule.whole
        schema = {"type": "integer", "minimum": low}
    elif values and all(isinstance(value, bool) for value in values):
        schema = {"type": "boolean"}
    else:
        schema = {"enum": values}
    schema["default"] = rule.default
    if rule.description is not None:
        schema["description"] = rule.description.render(LANGUAGE)
    return schema


def house_rules_properties() -> dict[str, Any]:
    """Return the house rules of every rule system (the end aside), each said for its system.

    A key two rule systems share is described once, with the values either allows.
    """
    properties: dict[str, Any] = {}
    for variant in rules.VARIANTS.values():
        for rule in variant.HOUSE_RULES:
            schema = house_rule_schema(rule)
            said = f"{variant.title}: {schema.get('description', '')}".rstrip(": ")
            schema["description"] = said + "."
            if rule.key not in properties:
                properties[rule.key] = schema
                continue
            known = properties[rule.key]
            known["description"] += " " + schema["description"]
            if "enum" in known and "enum" in schema:
                known["enum"] += [value for value in schema["enum"] if value not in known["enum"]]
    return properties


def _ends_said(variant: type[rules.Variant]) -> str:
    """Say how a rule system's session may end, e.g. ``{"target": N} or {"games": N}``."""
    end = variant.end_rule()
    kinds = " or ".join(
        f'{{"{kind}": {"-N" if high < 0 else "N"}}}' for kind, (_low, high) in end.ends.items()
    )
    return f'"end": {kinds} (default {json.dumps(end.default)})'


def house_rules_schema(description: str | None = None) -> dict[str, Any]:
    """Return the schema of the ``rules`` object of a request: every rule system's house rules.

    ``description`` replaces the one that says each rule system's house rules.
    """
    if description is None:
        systems = "; ".join(
            f"{variant.title}: "
            + ", ".join(
                [_ends_said(variant)]
                + [f'"{rule.key}": {_allowed(rule)}' for rule in variant.HOUSE_RULES]
            )
            for variant in rules.VARIANTS.values()
        )
        description = (
            "House rules, every key optional (defaults in GET /api/v1/variants). " + systems + "."
        )
    return {"type": "object", "description": description, "properties": house_rules_properties()}


def _allowed(rule: rules.HouseRule) -> str:
    """Say the values a house rule allows, as JSON: ``"winner" or "loser"``, ``0…N``."""
    if rule.whole is not None:
        return f"{rule.whole[0]} or more"
    return " or ".join(json.dumps(option.value) for option in rule.options)


def players_schema() -> dict[str, Any]:
    """Return the schema of a new session's players: as many as the rule systems seat."""
    variants = [variant() for variant in rules.VARIANTS.values()]
    seats = "; ".join(
        f"{variant.min_players} to {variant.max_players} in {variant.title}"
        + (
            f" ({variant.most_players()} by its house rules)"
            if variant.most_players() > variant.max_players
            else ""
        )
        for variant in variants
    )
    return {
        "type": "array",
        "items": {"type": "string", "minLength": 1, "maxLength": 40},
        "minItems": min(variant.min_players for variant in variants),
        "maxItems": max(variant.most_players() for variant in variants),
        "description": "Names in seating order (clockwise), each different and at most 40 "
        f"characters: {seats} (GET /api/v1/variants).",
    }


def target_schema() -> dict[str, Any]:
    """Return the schema of a new session's target: short for the end rule's target."""
    targets = " and ".join(
        f"{variant.default_target} in {variant.title}"
        for variant in rules.VARIANTS.values()
        if rules.TARGET.key in variant.end_rule().default
    )
    return {
        "type": "integer",
        "description": f'Short for "rules": {{"end": {{"target": N}}}}; {targets} by default.',
        "minimum": 1,
        "maximum": 2147483647,
    }
