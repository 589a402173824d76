"""Whether a ruling changed what games are worth: the rules of another checkout against these.

Run from the project folder, the other version a folder holding a checkout (its
``scorekeeper/rules/`` is all that is read, e.g. from ``git archive <commit> scorekeeper/rules``)::

    .venv/bin/python bench/rulings.py --checkout /tmp/old

It values every Treppenrommé set and sequence, 4,000 layoffs onto sequences and sets, and
3,000 settlements (Treppenrommé under both readings of the Rommé doubling where the checkout
has them, and Boathouse Rum where it has it) under the checkout's rules and under these, the
same cases in the same order, and prints every case whose value or verdict differs. An import
takes stored values only as today's rules write them (``rules.RULINGS_SINCE`` names the rulings
that changed a booking since; see docs/deployment.md): what this prints is what such a ruling
must cover.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("♠", "♥", "♦", "♣")


def main() -> None:
    """Value the cases under both versions and print what differs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--checkout", help="the other version's folder")
    parser.add_argument("--values", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.values:  # the child: value the cases with whatever rules are on the path
        json.dump(values(), sys.stdout, sort_keys=True, default=str)
        return
    other = child(Path(args.checkout))
    ours = child(Path(__file__).resolve().parent.parent)
    differ = [case for case in other if other[case] != ours.get(case)]
    print(f"{len(other)} cases valued by both; {len(differ)} differ.")
    for case in differ:
        print(f"{case}: {other[case]} then, {ours.get(case)} now")


def child(folder: Path) -> dict[str, Any]:
    """Value the cases in a process that imports a folder's rules core and nothing else."""
    with tempfile.TemporaryDirectory(prefix="scorekeeper-rulings-") as copy:
        shutil.copytree(folder / "scorekeeper" / "rules", Path(copy) / "scorekeeper" / "rules")
        run = subprocess.run(
            [sys.executable, "-S", __file__, "--values"],
            env={**os.environ, "PYTHONPATH": copy},
            capture_output=True,
            check=True,
            text=True,
        )
    answer: dict[str, Any] = json.loads(run.stdout)
    return answer


def values() -> dict[str, Any]:
    """Return the value (or the refusal) of each case under the rules on the path."""
    # Whatever rules the path holds: an older version's differ from the ones mypy knows.
    rules: Any = importlib.import_module("scorekeeper.rules")
    parse_cards = importlib.import_module("scorekeeper.rules.cards").parse_cards

    treppen = rules.find_variant("treppenromme")
    found: dict[str, Any] = {}

    def valued(cards: list[str], onto: list[str] | None = None) -> Any:
        table = rules.Table(treppen)
        try:
            if onto is None:
                meld = table.meld(1, parse_cards(" ".join(cards)))
                return [meld.value, [str(card) for card in meld.cards], list(meld.values)]
            table.meld(1, parse_cards(" ".join(onto)))
            layoff = table.lay_off(2, 1, parse_cards(" ".join(cards)))
            return [layoff.value, list(layoff.values)]
        except rules.RulesError as error:
            return ["refused", type(error).__name__]

    for rank in RANKS:
        for size in (3, 4):
            for suits in itertools.combinations(SUITS, size):
                cards = [rank + suit for suit in suits]
                found["set " + " ".join(cards)] = valued(cards)
    for suit in SUITS:
        for start in range(13):
            for length in range(3, 14):
                cards = [RANKS[(start + at) % 13] + suit for at in range(length)]
                found["sequence " + " ".join(cards)] = valued(cards)
    chance = random.Random(7)
    for _ in range(4000):
        suit, start, length = chance.choice(SUITS), chance.randrange(13), chance.randrange(3, 12)
        meld = [RANKS[(start + at) % 13] + suit for at in range(length)]
        extra = chance.choice([1, 2])
        if chance.random() < 0.5:
            ends = [RANKS[(start - 1 - at) % 13] + suit for at in range(extra)]
        else:
            ends = [RANKS[(start + length + at) % 13] + suit for at in range(extra)]
        found[f"layoff {' '.join(ends)} onto {' '.join(meld)}"] = valued(ends, meld)
        rank, picked = chance.choice(RANKS), chance.sample(SUITS, 4)
        set_cards = [rank + one for one in picked[:3]]
        found[f"layoff {rank + picked[3]} onto {' '.join(set_cards)}"] = valued(
            [rank + picked[3]], set_cards
        )
    pack = [rank + suit for rank in RANKS for suit in SUITS]
    systems: list[tuple[str, Any]] = [("treppenromme", treppen)]
    for name, house_rules in (("treppenromme", {"romme_doubling": "loser"}), ("boathouse_rum", {})):
        # A version without that rule system or house rule leaves it out.
        with contextlib.suppress(TypeError, ValueError):
            systems.append((f"{name} {house_rules}", rules.find_variant(name, house_rules)))
    for name, variant in systems:
        for number in range(1000):
            players = [1, 2, 3, 4][: chance.randrange(2, 5)]
            dealt = chance.sample(pack, 10 * len(players))
            hands = {
                player: parse_cards(" ".join(dealt[10 * at : 10 * at + chance.randrange(1, 10)]))
                for at, player in enumerate(players[1:])
            }
            romme = chance.random() < 0.5
            never = [player for player in players[1:] if chance.random() < 0.3]
            try:
                if hasattr(variant, "settle"):
                    settled = variant.settle(players, 1, hands, romme=romme, never_melded=never)
                else:  # the first versions settled through a function
                    settled = rules.settle_game(
                        players, 1, hands, romme=romme, never_melded=never, variant=variant
                    )
                found[f"{name} settlement {number}"] = [
                    settled.hand_points,
                    settled.gains,
                    settled.factors,
                ]
            except rules.RulesError as error:
                found[f"{name} settlement {number}"] = ["refused", type(error).__name__]
    return found


if __name__ == "__main__":
    main()
