"""The answer to a check of cards: what the rules make of them, or why not, recording nothing.

The API's ``/check`` and ``/games/<id>/check`` answer with it, and so does the game page's live
check (its script reads the same JSON): one description for both.
"""

from __future__ import annotations

from typing import Any

from scorekeeper import rules, services


def cards_json(meld: rules.Meld, variant: rules.Variant) -> dict[str, Any]:
    """Return a meld's cards, a joker as ``JKR``, and what each joker stands for (G2).

    ``"jokers"`` is there where the rule system plays jokers: the answers of the others keep
    their shape.

    >>> from scorekeeper.rules.cards import parse_pieces
    >>> german = rules.GermanRummy()
    >>> cards_json(rules.classify_pieces(parse_pieces("6♠ 6♥ JKR"), german), german)
    {'cards': ['6♠', '6♥', 'JKR'], 'jokers': [{'index': 2, 'as': ['6♦', '6♣']}]}
    """
    cards: dict[str, Any] = {"cards": [piece_code(piece) for piece in meld.cards]}
    if variant.jokers:
        cards["jokers"] = [
            {"index": place.index, "as": [card.code for card in place.stands_for]}
            for place in meld.jokers
        ]
    return cards


def piece_code(piece: rules.Piece) -> str:
    """Return a card's code, or ``JKR`` for a joker whatever it stands for."""
    return rules.Joker().code if isinstance(piece, rules.Joker) else piece.code


def meld_checked(meld: rules.Meld, variant: rules.Variant) -> dict[str, Any]:
    """Return what the check says of a meld: kind, cards, jokers, values, aces, opening value."""
    checked = {
        "kind": meld.kind.value,
        **cards_json(meld, variant),
        "values": list(meld.values),
        "value": meld.value,
    }
    # Where no opening is played, the answer keeps the shape it always had.
    if variant.has_opening():
        checked["opening_value"] = meld.opening_value
    return {**checked, "aces": aces(meld, set(meld.cards))}


def aces(meld: rules.Meld, counted: set[rules.Piece]) -> list[dict[str, Any]]:
    """Say where each counted ace lies and what it scores there (set, high, corner, low)."""
    return [
        {"card": card.code, "position": position.value, "value": value}
        for card, value, position in zip(meld.cards, meld.values, meld.ace_positions, strict=True)
        if position is not None and card in counted and isinstance(card, rules.Card)
    ]


def game_check(
    game_id: int, player: int | None, fields: dict[str, Any], lang: str
) -> dict[str, Any]:
    """Answer a check of an entry in a game (``services.check_entry``), as ``/check`` answers.

    What the rules refuse is ``valid: false`` with the ``error`` (and the cards a joker in doubt
    may stand for); a refusal of the turn (the opening) keeps what the cards make beside it. A
    card that cannot be read raises, as on ``/check``.
    """
    try:
        checked = services.check_entry(game_id, player, **fields)
    except rules.CardNotationError:
        raise
    except rules.JokerInDoubtError as error:
        return {
            "valid": False,
            "error": error.message(lang),
            "joker_choices": [card.code for card in error.choices],
        }
    except rules.RulesError as error:
        return {"valid": False, "error": error.message(lang)}
    variant = checked.variant
    answer: dict[str, Any]
    if checked.swap is not None:
        swap = checked.swap
        answer = {
            "meld": {"kind": swap.meld.kind.value, **cards_json(swap.meld, variant)},
            "added": [card.code for card in swap.cards],
            "new_meld": meld_checked(swap.new_meld, variant),
        }
    elif checked.layoff is not None:
        layoff = checked.layoff
        answer = {
            "kind": layoff.meld.kind.value,
            **cards_json(layoff.meld, variant),
            "added": [piece_code(card) for card in layoff.cards],
            "values": list(layoff.values),
            "value": layoff.value,
            "aces": aces(layoff.meld, set(layoff.cards)),
        }
    elif len(checked.melds) == 1:
        answer = meld_checked(checked.melds[0], variant)
    else:
        answer = {
            "melds": [meld_checked(meld, variant) for meld in checked.melds],
            "value": sum(meld.value for meld in checked.melds),
        }
        if variant.has_opening():
            answer["opening_value"] = sum(meld.opening_value for meld in checked.melds)
    if checked.refusal is not None:
        return {"valid": False, **answer, "error": checked.refusal.message(lang)}
    return {"valid": True, **answer}
