"""Who plays, in which seats, and to what target (who deals is the rule system's to say)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.rules.errors import SeatingError
from scorekeeper.rules.variants import TREPPENROMME, Variant

LONGEST_NAME = 40

# Letters, numbers, punctuation and symbols show; but these few are drawn as blank space.
BLANK_LOOKING = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def seat_players(names: Sequence[str], variant: Variant = TREPPENROMME) -> list[str]:
    """Return the player names in seating order (clockwise), tidied, or raise why not.

    A name is seated in its composed form (NFC), so one name is stored one way, whichever way
    the phone typed it; names that differ only in case or in composition are the same name.

    >>> seat_players([" Ann ", "Bob"])
    ['Ann', 'Bob']
    >>> seat_players(["A\u030ana", "Bob"]) == ["\u00c5na", "Bob"]
    True
    """
    low, high = variant.min_players, variant.max_players
    if not low <= len(names) <= high:
        raise SeatingError(
            "seating.player_count", variant=variant, low=low, high=high, count=len(names)
        )
    return check_names(names)


def check_names(names: Sequence[str]) -> list[str]:
    """Return the names of a session's players tidied, or raise why one cannot be a name.

    As ``seat_players``, without counting them: a session keeps the names of those who left.

    >>> check_names(["Ann", " bob"])
    ['Ann', 'bob']
    """
    tidied = [" ".join(name.split()) for name in names]
    # Each refusal of a name says its seat, so that a form can show it beside that name.
    # Control characters print as nothing or break a page, and half a character (a lone
    # surrogate) cannot be stored: a name is something to read out.
    for seat, name in enumerate(tidied):
        if any(unicodedata.category(character) in ("Cc", "Cs") for character in name):
            raise SeatingError("seating.name_unprintable", seat=seat)
    # Format characters are invisible: a zero-width space makes a second "Ann" that looks like
    # the first, and a direction override turns the scores beside a name around on screen.
    for seat, name in enumerate(tidied):
        if any(unicodedata.category(character) == "Cf" for character in name):
            raise SeatingError("seating.name_invisible", seat=seat)
    seated = [unicodedata.normalize("NFC", name) for name in tidied]
    # A name of accents alone, or of characters drawn as blank space, is no name to read out.
    for seat, name in enumerate(seated):
        if not name_shows(name):
            raise SeatingError("seating.no_name", seat=seat)
    for seat, name in enumerate(seated):
        if len(name) > LONGEST_NAME:
            raise SeatingError("seating.name_too_long", longest=LONGEST_NAME, seat=seat)
    seen: set[str] = set()
    for seat, name in enumerate(seated):
        if same_name(name) in seen:
            raise SeatingError("seating.name_twice", name=name, seat=seat)
        seen.add(same_name(name))
    return seated


def same_name(name: str) -> str:
    """Return what two names have in common when they name the same person.

    That is the name without case and spaces, its compatibility forms taken as the letters
    they show (Unicode's compatibility caseless match, NFKC): "Anna Lena" and "Annalena", or a
    full-width "Ａｎｎｉ" and "Anni", at one table could not be told apart on the sheet, and a
    group's statistics take them for one person.

    >>> same_name("\u00c5SA") == same_name("a\u030asa")
    True
    >>> same_name("Anna Lena") == same_name("annalena")
    True
    >>> same_name("\uff21\uff4e\uff4e\uff49"), same_name("Tisch\u00b2")
    ('anni', 'tisch2')
    """
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFD", name).casefold())
    folded = unicodedata.normalize("NFKC", folded.casefold())
    return "".join(folded.split())


def name_shows(name: str) -> bool:
    """Say whether a name has a character that is drawn: a letter, number, punctuation or symbol.

    >>> name_shows("Ann"), name_shows("\u3164")  # a Hangul filler looks like a blank
    (True, False)
    """
    return any(
        unicodedata.category(character)[0] in "LNPS" and character not in BLANK_LOOKING
        for character in name
    )


def join_seating(
    seated: Sequence[str],
    name: str,
    seat: int | None = None,
    variant: Variant = TREPPENROMME,
    *,
    left: Sequence[str] = (),
) -> list[str]:
    """Return the seating with a new player at ``seat`` (the end when None), or raise why not.

    The name is checked as at the start; a name of someone who ``left`` stays theirs, since
    their points stay in the session under it.

    >>> join_seating(["Ann", "Bob"], " Dan ", 1)
    ['Ann', 'Dan', 'Bob']
    >>> join_seating(["Ann", "Bob"], "Cid", 3)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.SeatingError: There is no seat 3: a new player sits at seat 0 to 2.
    """
    low, high = variant.min_players, variant.max_players
    if len(seated) >= high:
        raise SeatingError(
            "seating.table_full", variant=variant, low=low, high=high, count=len(seated)
        )
    at = len(seated) if seat is None else seat
    if not 0 <= at <= len(seated):
        raise SeatingError("seating.no_such_seat", seat=at, last=len(seated))
    joined = seat_players([*seated[:at], name, *seated[at:]], variant)
    gone = next((old for old in left if same_name(old) == same_name(joined[at])), None)
    if gone is not None:
        raise SeatingError("seating.name_of_one_who_left", name=gone)
    return joined


def leave_seating(seated: Sequence[str], seat: int, variant: Variant = TREPPENROMME) -> list[str]:
    """Return the seating without the player at ``seat``, or raise why they cannot leave.

    >>> leave_seating(["Ann", "Bob", "Cid"], 0)
    ['Bob', 'Cid']
    """
    low, high = variant.min_players, variant.max_players
    if len(seated) <= low:
        raise SeatingError(
            "seating.too_few_to_leave", variant=variant, low=low, high=high, count=len(seated)
        )
    return [*seated[:seat], *seated[seat + 1 :]]


@dataclass(frozen=True)
class Stay:
    """The games a player of a session is dealt in: from game ``joined`` until before ``left``.

    A change of the seating is kept as the number of the game it counts from, the game dealt
    next when it was made; ``left`` is None while the player sits at the table.

    >>> Stay(joined=2, left=4).plays_in(3), Stay(joined=2, left=4).plays_in(4)
    (True, False)
    """

    joined: int = 1
    left: int | None = None

    def plays_in(self, number: int) -> bool:
        """Tell whether the player is dealt in the game of this number."""
        return self.joined <= number and (self.left is None or number < self.left)

    @property
    def latest_change(self) -> int:
        """Return the number of the game the player's latest join or leave counts from."""
        return self.joined if self.left is None else self.left


@dataclass(frozen=True)
class Seating:
    """Everyone of a session, in seat order, with the games each was dealt in.

    It answers who is dealt in a game, and whether a game can go without a trace.

    >>> seating = Seating((Stay(), Stay(left=3), Stay(joined=3)))
    >>> seating.dealt_in(2), seating.dealt_in(3)
    ([0, 1], [0, 2])
    """

    stays: tuple[Stay, ...]

    def dealt_in(self, number: int) -> list[int]:
        """Return the places (in ``stays``) of the players dealt in the game of this number."""
        return [at for at, stay in enumerate(self.stays) if stay.plays_in(number)]

    def changed_after(self, number: int) -> bool:
        """Tell whether a player joined or left after the game of this number was dealt.

        >>> Seating((Stay(), Stay(joined=3))).changed_after(2)
        True
        >>> Seating((Stay(), Stay(joined=3))).changed_after(3)
        False
        """
        return any(stay.latest_change > number for stay in self.stays)

    def can_remove(self, number: int) -> bool:
        """Tell whether the game of this number, the last one dealt, can go without a trace.

        A reopen of the game before it removes it when nothing was recorded there. Not when the
        seating changed after it was dealt: that change counts from the game after it, and the
        game dealt next in its place would be dealt in by the seating before the change while
        the deal passed on in the seating after it. A change made before it was dealt counts
        from it, and so from the game dealt again in its place.

        >>> Seating((Stay(), Stay(joined=2))).can_remove(2)
        True
        >>> Seating((Stay(), Stay(left=3), Stay(joined=3))).can_remove(2)
        False
        """
        return not self.changed_after(number)

    def dealer(self, variant: Variant, first_dealer_seat: int, last: DealtGame | None) -> int:
        """Return the place (in ``stays``) of who deals the game in progress, or the next game.

        ``last`` is the latest game dealt (None before the first). The rule system decides from
        its dealer and winner in the seating of the game after it, so the deal follows players
        who joined or left between games: a dealer who left counts as sitting just before the
        next player still at the table, whom the deal passes to.

        >>> from scorekeeper.rules.variants import find_variant
        >>> seating = Seating((Stay(), Stay(left=2), Stay()))
        >>> seating.dealer(find_variant(), 1, None)
        1
        >>> seating.dealer(find_variant(), 1, DealtGame(1, dealer=1, winner=0, still_open=False))
        2
        """
        number = last.number + 1 if last is not None else 1
        seated = self.dealt_in(number)
        if last is None:
            return seated[first_dealer_seat]
        if last.still_open:
            return last.dealer
        if last.dealer in seated:
            dealer = seated.index(last.dealer)
        else:
            places = range(len(self.stays))
            after = next(
                place
                for place in [*places[last.dealer + 1 :], *places[: last.dealer]]
                if place in seated
            )
            dealer = (seated.index(after) - 1) % len(seated)
        winner = seated.index(last.winner) if last.winner in seated else None
        return seated[variant.dealer_seat(first_dealer_seat, (dealer, winner, False), len(seated))]

    def reopen_refusal(self, number: int, later: Sequence[LaterGame]) -> ReopenRefusal | None:
        """Return why the ended game of this number cannot be reopened, or None when it can.

        ``later`` are the games dealt after it, in order. A reopen removes the next game when
        it is still open with nothing recorded and the seating lets it go (``can_remove``);
        any other later game keeps this one closed.

        >>> seating = Seating((Stay(), Stay(left=3), Stay(joined=3)))
        >>> seating.reopen_refusal(2, [LaterGame(3, still_open=True, played=False)]) is None
        True
        >>> seating.reopen_refusal(1, [LaterGame(2, still_open=True, played=False)])
        ReopenRefusal(reason='seating_changed_after', number=1, later=2)
        >>> seating.reopen_refusal(2, [LaterGame(3, still_open=True, played=True)])
        ReopenRefusal(reason='later_game_played', number=2, later=3)
        """
        for game in later:
            if game.played or not game.still_open or game.number > number + 1:
                return ReopenRefusal("later_game_played", number, game.number)
            if not self.can_remove(game.number):
                return ReopenRefusal("seating_changed_after", number, game.number)
        return None


@dataclass(frozen=True)
class DealtGame:
    """A game as the deal of the next one sees it: its number, dealer and winner (as places in
    the seating) and whether it is still open."""

    number: int
    dealer: int
    winner: int | None
    still_open: bool


@dataclass(frozen=True)
class LaterGame:
    """A game dealt after one to reopen: its number, whether still open, whether played."""

    number: int
    still_open: bool
    played: bool


@dataclass(frozen=True)
class ReopenRefusal:
    """Why a game cannot be reopened: ``reason`` names it, ``later`` the game in the way."""

    reason: str
    number: int
    later: int


def first_dealer_after_joining(first_dealer_seat: int, seat: int, coming: int) -> int:
    """Return the first dealer's seat once a player sits down at ``seat`` before game ``coming``.

    Before the first game the same player still deals it: a newcomer at or before their seat
    moves them one on. Once a game was dealt the first dealer's seat no longer counts.

    >>> first_dealer_after_joining(1, 0, 1), first_dealer_after_joining(1, 2, 1)
    (2, 1)
    >>> first_dealer_after_joining(1, 0, 3)
    1
    """
    if coming == 1 and seat <= first_dealer_seat:
        return first_dealer_seat + 1
    return first_dealer_seat


def first_dealer_after_leaving(first_dealer_seat: int, seat: int, coming: int, staying: int) -> int:
    """Return the first dealer's seat once the player at ``seat`` leaves before game ``coming``.

    Before the first game the same player still deals it; if the first dealer is the one
    leaving, the player after them. ``staying`` is how many stay at the table.

    >>> first_dealer_after_leaving(2, 0, 1, 2), first_dealer_after_leaving(2, 2, 1, 2)
    (1, 0)
    >>> first_dealer_after_leaving(2, 0, 3, 2)
    2
    """
    if coming != 1:
        return first_dealer_seat
    if seat < first_dealer_seat:
        first_dealer_seat -= 1
    return first_dealer_seat % staying


def check_target(target: int) -> int:
    """Return the target if it is a positive number of points, or raise."""
    if target < 1:
        raise SeatingError("seating.target")
    return target


def seating_problems(
    names: Sequence[str],
    target: int | None,
    first_dealer: int | None,
    variant: Variant = TREPPENROMME,
) -> dict[str, SeatingError]:
    """Return every reason a session cannot start so, by what it is about; none when it can.

    The keys are ``players``, ``target`` and ``first_dealer``, so a form can show each problem
    beside its field. ``None`` leaves the target or the first dealer (drawn by lot) unchecked.

    >>> list(seating_problems(["Ann", "ann"], 0, 2))
    ['players', 'target', 'first_dealer']
    >>> seating_problems(["Ann", "Bob"], 500, None)
    {}
    """
    problems: dict[str, SeatingError] = {}
    try:
        seat_players(names, variant)
    except SeatingError as error:
        problems["players"] = error
    if target is not None:
        try:
            check_target(target)
        except SeatingError as error:
            problems["target"] = error
    if first_dealer is not None and not 0 <= first_dealer < len(names):
        problems["first_dealer"] = SeatingError("seating.dealer_not_a_player")
    return problems
