"""How the store and the use cases refuse: an error class per kind, its message in the catalogue."""

from __future__ import annotations

from scorekeeper import rules

# What the use cases say when they refuse: gettext msgids of the app's catalogue, as the
# rules' messages (the German is in translations/de/LC_MESSAGES/messages.po).
MESSAGES: dict[str, rules.Wording] = {
    # Said alike when the key is missing or wrong, so that nobody learns which sessions exist.
    "no_session": rules.wording(
        "There is no such session, or it needs its key (the link from the phone that started it)."
    ),
    "no_game": rules.wording(
        "There is no such game, or it needs its session's key (the link from the phone that "
        "started it)."
    ),
    "no_group": rules.wording(
        "There is no such group, or it needs its key (the link from the phone that started it)."
    ),
    "no_evening": rules.wording(
        "There is no such evening, or it needs its key (the link from the phone that started it)."
    ),
    "evening_table_end": rules.wording(
        "This table is part of an evening: it ends with its series, which the organiser set."
    ),
    "evening_table_seats": rules.wording(
        "This table is part of an evening: its players are seated by the series, not here."
    ),
    "series_over": rules.wording(
        "The time of series %(number)s is up: this table has played its last game."
    ),
    "series_closed": rules.wording(
        "Series %(number)s is over and the next one is seated: its games are final."
    ),
    "not_drawn": rules.wording(
        "Series %(number)s was seated by the standing: only a drawn series is drawn again."
    ),
    "no_entry": rules.wording("There is no such entry in this game."),
    "no_such_meld": rules.wording("That meld is not on the table in this game."),
    "meld_is_no_layoff": rules.wording(
        "A meld lies on the table by itself: only laid-off cards can be moved onto another meld."
    ),
    "meld_recorded_later": rules.wording(
        "That meld was recorded after these cards were laid off: it was not on the table yet."
    ),
    "no_such_player": rules.wording("That player does not play in this session."),
    "hand_of_a_stranger": rules.wording("A hand was entered for someone who does not play here."),
    "session_over": rules.wording("This session is over: start a new session to play on."),
    "game_still_open": rules.wording("A game is still open: finish or abandon it first."),
    "game_over": rules.wording("Game %(number)s is over: its entries are final."),
    "nothing_to_undo": rules.wording("There is nothing to undo in this game yet."),
    "nothing_to_restore": rules.wording(
        "Entry %(entry)s was not undone or deleted in this game: there is nothing to restore."
    ),
    "later_entry_builds_on_it": rules.wording(
        "A later entry builds on these cards: %(name)s's %(cards)s (entry %(position)s). Correct "
        "or delete that entry first."
    ),
    "opening_broken": rules.wording(
        "Then %(name)s's %(cards)s (entry %(position)s) would be their opening, and an opening "
        "is one or more melds worth at least %(minimum)s. Correct or delete that entry first."
    ),
    "meld_has_layoffs": rules.wording(
        "Cards were laid off onto this meld: delete those layoffs first."
    ),
    "later_layoff_builds_on_it": rules.wording(
        "A later layoff builds on these cards: delete that layoff first."
    ),
    "undo_out_of_date": rules.wording(
        "Nothing was undone: the latest entry is no longer the one this page showed (it was "
        "undone already, or someone recorded since). Look at the game again."
    ),
    "game_not_ended": rules.wording(
        "Game %(number)s is still being played: there is no settlement to take back."
    ),
    "later_game_played": rules.wording(
        "Game %(number)s was played after it: only the last game can be reopened, while the game "
        "dealt after it has nothing recorded."
    ),
    "seating_changed_after": rules.wording(
        "Game %(number)s cannot be reopened: the seating changed after game %(later)s was "
        "dealt, and game %(later)s would have to go. Finish game %(later)s and play on."
    ),
    "no_melds": rules.wording("Give at least one meld."),
    "end_passed": rules.wording(
        "The totals have passed that end already, so the session would be over at once: choose "
        "an end still ahead."
    ),
    "left_already": rules.wording("%(name)s has left the table already."),
    "seating_decides": rules.wording(
        "With this seating %(name)s would win the session at once: the tie at the top is "
        "played off first."
    ),
    "only_the_end_changes": rules.wording(
        "Only how the session ends can change once it started; the other house rules stay."
    ),
    "several_melds": rules.wording(
        "This entry put down several melds at once: undo or delete it and record it again."
    ),
    "raced": rules.wording(
        "Another phone recorded at the same moment: look at the game and try again."
    ),
}


class ServiceError(Exception):
    """A refusal of a use case, with its message in English and German."""

    def __init__(self, message_id: str, /, **params: object) -> None:
        self.message_id = message_id
        self.params = params
        super().__init__(self.message("en"))

    def message(self, language: str = "en") -> str:
        """Return the message in a language ("de" German, anything else English)."""
        return MESSAGES[self.message_id].render(language, **self.params)


class NotFoundError(ServiceError, LookupError):
    """The session, game, player, meld or entry does not exist (here)."""


class ConflictError(ServiceError):
    """The request does not fit the state things are in now (a closed game, a finished session)."""


class InvalidRequestError(ServiceError, ValueError):
    """The request names a player or meld that is not part of this game."""
