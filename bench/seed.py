"""Fill a database with a session of many finished games, for the growth measurements."""

from __future__ import annotations

from scorekeeper import create_app, rules, services
from scorekeeper.extensions import db
from scorekeeper.keys import SessionKeys
from scorekeeper.models import Entry, Game, GameSession, SettlementLine, TableCard


def _game_entries() -> list[tuple[int, str, int | None]]:
    """Return 20 legal entries (seat, cards, index of the meld for layoffs) for one game."""
    entries: list[tuple[int, str, int | None]] = []
    for suit in "♠♥":
        meld_index = len(entries)
        entries.append((0, f"A{suit} 2{suit} 3{suit}", None))
        for rank in ["4", "5", "6", "7", "8", "9", "10", "J", "Q"]:
            entries.append((len(entries) % 3, f"{rank}{suit}", meld_index))
    return entries


def seed_session(database_url: str, finished_games: int) -> tuple[str, int, int, str]:
    """Create a session with finished games of 20 entries and one open game.

    Return the session's id, the open game's id, a player's id and the session's edit key.
    """
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "bench"})
    script = _game_entries()
    edit_keys = SessionKeys.new()
    with app.app_context():
        created = services.create_session(["Ann", "Bob", "Cid"], target=10**9, keys=edit_keys)
        # The games are written straight into the tables, as the use cases would have booked them.
        session = db.session.get(GameSession, created.id)
        assert session is not None
        players = session.players
        for number in range(1, finished_games + 1):
            game = Game(
                number=number,
                dealer=players[(number - 1) % 3],
                status="finished",
                winner=players[0],
                romme=False,
            )
            session.games.append(game)
            db.session.flush()
            table: rules.Table[int] = rules.Table()
            keys: list[int] = []
            melds: dict[int, Entry] = {}
            for position, (seat, text, onto) in enumerate(script, start=1):
                cards = rules.parse_cards(text)
                key = position
                played = (
                    table.meld(key, cards)
                    if onto is None
                    else table.lay_off(key, keys[onto], cards)
                )
                keys.append(key)
                entry = Entry(
                    game_id=game.id,
                    position=position,
                    kind="meld" if onto is None else "layoff",
                    player=players[seat],
                    meld_kind=played.kind.value if isinstance(played, rules.Meld) else None,
                    value=played.value,
                    cards=[
                        TableCard(game_id=game.id, card=card.code, position=index, value=value)
                        for index, (card, value) in enumerate(
                            zip(played.cards, played.values, strict=True)
                        )
                    ],
                )
                if onto is None:
                    melds[key] = entry
                    db.session.add(entry)
                    db.session.flush()
                else:
                    entry.meld_id = melds[keys[onto]].id
                    db.session.add(entry)
            game.settlement_lines = [
                SettlementLine(player_id=players[0].id, gain=25),
                SettlementLine(player_id=players[1].id, hand="K♣ 8♦", hand_points=18, gain=0),
                SettlementLine(player_id=players[2].id, hand="7♣", hand_points=7, gain=0),
            ]
            if number % 100 == 0:
                db.session.commit()
        db.session.commit()
        started = services.start_game(session.id)
        services.record_meld(started.id, players[0].id, "J♦ Q♦ K♦")
        services.record_meld(started.id, players[1].id, "8♥ 8♦ 8♣")
        return session.public_id, started.id, players[2].id, edit_keys.edit
