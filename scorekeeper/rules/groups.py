"""A group of people who play together: who is who across its sessions, and their statistics.

A person is recognised by name, case, spaces and width ignored (``name_key``); two names
merged ("Anni" is "Anna") are one person. The services read the facts of a group's sessions
(totals, games played, melds recorded) and ask here what they add up to, per rule system:
points are not comparable between a game of plus points and one of minus points.

>>> people = People([("Anni", "Anna")])
>>> people.key("ANNI") == people.key("anna ") == "anna"
True
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from scorekeeper.rules.errors import GroupError
from scorekeeper.rules.seating import LONGEST_NAME, name_shows, same_name
from scorekeeper.rules.variants import VARIANTS, Variant

# How many of the latest sessions the statistics show with their results.
LAST_RESULTS = 5


def name_key(name: str) -> str:
    """Return what recognises a person across a group's sessions: case, spaces, width ignored.

    >>> name_key(" Anna Lena "), name_key("ANNALENA")
    ('annalena', 'annalena')
    >>> name_key("Jürgen") == name_key("JU\u0308RGEN")
    True
    """
    return same_name(name)


def group_name(name: str) -> str:
    """Return a group's name tidied (spaces as one, composed), or raise why it is none.

    >>> group_name("  Donnerstags runde ")
    'Donnerstags runde'
    """
    tidied = _tidy(name)
    if not tidied:
        raise GroupError("group.no_name")
    if len(tidied) > LONGEST_NAME:
        raise GroupError("group.name_too_long", longest=LONGEST_NAME)
    return tidied


def _tidy(name: str) -> str:
    """Return a name with its spaces as one and composed one way; empty when nothing shows."""
    tidied = unicodedata.normalize("NFC", " ".join(name.split()))
    categories = {unicodedata.category(character) for character in tidied}
    if categories & {"Cc", "Cs"}:
        raise GroupError("seating.name_unprintable")
    if "Cf" in categories:
        raise GroupError("seating.name_invisible")
    if not name_shows(tidied):
        return ""
    return tidied


@dataclass(frozen=True)
class Seat:
    """A name that sat at a session of the group (its session's id and the name as written).

    ``dealt`` says whether a game was dealt with them: a name that only sat at a table where
    no game was dealt never played.
    """

    session: str
    name: str
    dealt: bool = True


class People:
    """Who is who in a group: each name by its key, and names merged into one person.

    ``merges`` are the pairs (name, same_as) in the order they were made; merging is
    transitive, and the person is known by the key of the name it was merged into last.

    >>> people = People([("Anni", "Anna"), ("Anna", "Annegret")])
    >>> people.key("anni"), people.key("Bob")
    ('annegret', 'bob')
    >>> People([("Anna", "anna")]).key("ANNA")  # one person already: nothing to follow
    'anna'
    """

    def __init__(self, merges: Iterable[tuple[str, str]] = ()) -> None:
        self._parent: dict[str, str] = {}
        # A name a merge wrote for a person, for when nobody of that spelling played.
        self._written: dict[str, str] = {}
        for name, same_as in merges:
            person, merged = self.key(same_as), self.key(name)
            if merged == person:  # one person already (only an edited export says so)
                continue
            self._parent[merged] = person
            self._written[person] = same_as

    def key(self, name: str) -> str:
        """Return the key of the person a name names, merges followed."""
        key = name_key(name)
        while key in self._parent:
            key = self._parent[key]
        return key

    def written(self, person: str) -> str | None:
        """Return the name a merge gave a person, if one did."""
        return self._written.get(person)

    def check_merge(self, name: str, same_as: str, seats: Iterable[Seat]) -> tuple[str, str]:
        """Return two names tidied if they can be merged into one person, or raise why not.

        Both must have played in the group (been dealt in a game of one of its sessions), not
        be one person already, and never have sat at the same session (two people at one table
        are two people, whether a game was dealt there or not).

        >>> seats = [Seat("s1", "Anna"), Seat("s1", "Bob"), Seat("s2", "Anni")]
        >>> People().check_merge(" Anni", "Anna", seats)
        ('Anni', 'Anna')
        >>> def refusal(name, same_as, seats):
        ...     try:
        ...         People().check_merge(name, same_as, seats)
        ...     except GroupError as error:
        ...         return error.message_id
        >>> refusal("Bob", "Anna", seats)
        'group.played_together'
        >>> refusal("Ann", "Anna", [*seats, Seat("s3", "Ann", dealt=False)])
        'group.never_dealt'
        """
        name, same_as = _tidy(name), _tidy(same_as)
        if not (name and same_as):
            raise GroupError("seating.no_name")
        if max(len(name), len(same_as)) > LONGEST_NAME:
            raise GroupError("seating.name_too_long", longest=LONGEST_NAME)
        if name_key(name) == name_key(same_as):
            raise GroupError("group.same_name", name=name, same_as=same_as)
        seated = list(seats)
        sat = {name_key(seat.name) for seat in seated}
        played = {name_key(seat.name) for seat in seated if seat.dealt}
        for given in (name, same_as):
            if name_key(given) not in sat:
                raise GroupError("group.nobody_called", name=given)
            if name_key(given) not in played:
                raise GroupError("group.never_dealt", name=given)
        person, other = self.check_people(name, same_as)
        sessions: dict[str, set[str]] = defaultdict(set)
        for seat in seated:
            sessions[self.key(seat.name)].add(seat.session)
        if sessions[person] & sessions[other]:
            raise GroupError("group.played_together", name=name, same_as=same_as)
        return name, same_as

    def check_people(self, name: str, same_as: str) -> tuple[str, str]:
        """Return the persons of two names to merge, or raise why they are one already.

        What of a merge holds whenever it is read again (an import asks it of each stored
        merge, with the merges before it): two names, not one by spelling nor by merges made
        before. Where the names played is history the sessions may no longer hold (a session
        never played is forgotten, a player renamed); a session's players are checked by
        ``check_players`` under every merge, which keeps merged names from any one table.

        >>> People([("Anni", "Anna")]).check_people("Anna", "Annegret")
        ('anna', 'annegret')
        >>> People([("Anni", "Anna")]).check_people("ANNA", "anni")
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.GroupError: “ANNA” and “anni” count as one person already.
        """
        if name_key(name) == name_key(same_as):
            raise GroupError("group.same_name", name=name, same_as=same_as)
        person, other = self.key(name), self.key(same_as)
        if person == other:
            raise GroupError("group.same_person", name=name, same_as=same_as)
        return person, other

    def check_players(self, names: Sequence[str]) -> None:
        """Raise why two of a session's names cannot both be its players: one person, merged.

        A merge says two names are one person, and one person plays one seat: a session where
        both play would count them as one with two seats' games and points. ``names`` are all
        the session's players (those who left included, as the merge counts a session), the
        one to be refused last; the error names the later of the two and its place (``seat``).

        >>> people = People([("Anni", "Anna")])
        >>> people.check_players(["Anna", "Bob"])
        >>> people.check_players(["Anna", "Bob", "anni"])
        Traceback (most recent call last):
        ...
        scorekeeper.rules.errors.GroupError: “anni” and “Anna” count as one person in this \
group (the names were merged): one person cannot sit at the table twice.
        """
        seen: dict[str, str] = {}
        for seat, name in enumerate(names):
            person = self.key(name)
            earlier = seen.setdefault(person, name)
            if name_key(earlier) != name_key(name):
                raise GroupError("group.merged_at_one_table", name=name, same_as=earlier, seat=seat)


# --- what the statistics read ---------------------------------------------------------------


@dataclass(frozen=True)
class PlayerFacts:
    """A player of one session: the session's total, and the games they played to an end.

    ``games`` counts the ended games they played (every player of an ended game has a
    settlement line, an abandoned game's too), ``points`` their points over those games (the
    settlement included), ``won`` the games they went out in, ``romme`` those with a Rommé hand.
    ``seated`` is False for a player who left the table between games.
    """

    id: int
    name: str
    total: int
    games: int = 0
    points: int = 0
    won: int = 0
    romme: int = 0
    seated: bool = True


@dataclass(frozen=True)
class SessionFacts:
    """One session of the group as the statistics read it, its players in seating order."""

    public_id: str
    variant: Variant
    status: str
    created_at: datetime
    players: tuple[PlayerFacts, ...]
    games_ended: int
    game_in_progress: bool = False

    def winner(self) -> int | None:
        """Return the player who won the session, once it is over: the rule system says who.

        As when the session ended: among the players at the table then.
        """
        if self.status != "finished":
            return None
        totals = {player.id: player.total for player in self.players if player.seated}
        standing = self.variant.standing(
            totals, self.games_ended, game_in_progress=self.game_in_progress
        )
        return standing.winner


@dataclass(frozen=True)
class RecordedMeld:
    """A meld as it was recorded: its cards put down at once and the value written then (R3).

    ``order`` tells earlier from later (the entry's id); ``game`` is the game's number.
    """

    player_id: int
    kind: str
    cards: tuple[str, ...]
    value: int
    session: str
    game: int
    order: int


def best_meld_order(meld: RecordedMeld) -> tuple[int, int, int]:
    """Return what makes a meld a person's best: the written value, then the cards, then first.

    The rule system wrote the value when the meld was recorded; where melds score nothing
    (German Rummy, Boathouse Rum) it wrote 0, so there the meld of the most cards is the best.
    """
    return meld.value, len(meld.cards), -meld.order


def longest_sequence_order(meld: RecordedMeld) -> tuple[int, int, int]:
    """Return what makes a sequence a person's longest: its cards, then its value, then first."""
    return len(meld.cards), meld.value, -meld.order


# --- what they add up to --------------------------------------------------------------------


@dataclass(frozen=True)
class PersonStatistics:
    """What one person did in a group's sessions of one rule system."""

    key: str
    name: str
    names: tuple[str, ...]
    sessions: int
    sessions_won: int
    games: int
    games_won: int
    points: int
    romme: int
    best_meld: RecordedMeld | None
    longest_sequence: RecordedMeld | None

    @property
    def average(self) -> float | None:
        """Return the points per game played, or None before a game ended."""
        return self.points / self.games if self.games else None


@dataclass(frozen=True)
class SessionResult:
    """A session's result: its winner (once it is over) and the totals in standing order."""

    public_id: str
    created_at: datetime
    status: str
    games: int
    winner: str | None
    totals: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RuleSystemStatistics:
    """A group's statistics under one rule system: its people and its latest results."""

    variant: Variant
    sessions: int
    games: int
    people: tuple[PersonStatistics, ...]
    last_results: tuple[SessionResult, ...]


def group_statistics(
    sessions: Iterable[SessionFacts],
    melds: Iterable[RecordedMeld],
    people: People,
    last: int = LAST_RESULTS,
) -> list[RuleSystemStatistics]:
    """Add up a group's sessions per rule system, in the order the rule systems are listed.

    A person counts a session as played when they played one of its games to the end.
    """
    by_system: dict[str, list[SessionFacts]] = defaultdict(list)
    for session in sorted(sessions, key=lambda session: session.created_at):
        by_system[session.variant.name].append(session)
    melds_of: dict[int, list[RecordedMeld]] = defaultdict(list)
    for meld in melds:
        melds_of[meld.player_id].append(meld)
    return [
        _statistics(by_system[name], melds_of, people, last)
        for name in VARIANTS
        if name in by_system
    ]


def _statistics(
    sessions: Sequence[SessionFacts],
    melds_of: dict[int, list[RecordedMeld]],
    people: People,
    last: int,
) -> RuleSystemStatistics:
    """Add up the sessions of one rule system, oldest first."""
    seats: dict[str, list[tuple[SessionFacts, PlayerFacts]]] = defaultdict(list)
    for session in sessions:
        for player in session.players:
            seats[people.key(player.name)].append((session, player))
    persons = [_person(key, held, melds_of, people) for key, held in seats.items()]
    persons.sort(
        key=lambda person: (-person.sessions_won, -person.games_won, _alphabetical(person.name))
    )
    return RuleSystemStatistics(
        variant=sessions[0].variant,
        sessions=len(sessions),
        games=sum(session.games_ended for session in sessions),
        people=tuple(persons),
        last_results=tuple(_result(session) for session in reversed(sessions[-last:])),
    )


def _person(
    key: str,
    seats: Sequence[tuple[SessionFacts, PlayerFacts]],
    melds_of: dict[int, list[RecordedMeld]],
    people: People,
) -> PersonStatistics:
    """Add up one person's seats (oldest first) and pick their best meld and longest sequence."""
    players = [player for _session, player in seats]
    melds = [meld for player in players for meld in melds_of.get(player.id, [])]
    sequences = [meld for meld in melds if meld.kind == "sequence"]
    return PersonStatistics(
        key=key,
        name=_name_of(key, [player.name for player in players], people),
        names=tuple(sorted({player.name for player in players}, key=_alphabetical)),
        sessions=len({session.public_id for session, player in seats if player.games}),
        sessions_won=sum(1 for session, player in seats if session.winner() == player.id),
        games=sum(player.games for player in players),
        games_won=sum(player.won for player in players),
        points=sum(player.points for player in players),
        romme=sum(player.romme for player in players),
        best_meld=max(melds, key=best_meld_order, default=None),
        longest_sequence=max(sequences, key=longest_sequence_order, default=None),
    )


def _alphabetical(name: str) -> tuple[str, str]:
    """Return how names sort: as in a dictionary, and "Anna" before "anna"."""
    return name.casefold(), name


def _name_of(key: str, names: Sequence[str], people: People) -> str:
    """Return how a person is called: the latest spelling of their own name, else as merged."""
    own = [name for name in names if name_key(name) == key]
    if own:
        return own[-1]
    return people.written(key) or names[-1]


def _result(session: SessionFacts) -> SessionResult:
    """Return a session's winner and totals, in the order its rule system shows a standing."""
    names = {player.id: player.name for player in session.players}
    totals = {player.id: player.total for player in session.players}
    # Those who left the table keep their totals, after the standing of the others.
    seated = [player.id for player in session.players if player.seated]
    order = session.variant.standing_order(seated, totals)
    order += [player.id for player in session.players if not player.seated]
    winner = session.winner()
    return SessionResult(
        public_id=session.public_id,
        created_at=session.created_at,
        status=session.status,
        games=session.games_ended,
        winner=names[winner] if winner is not None else None,
        totals=tuple((names[player], totals[player]) for player in order),
    )
