"""500 Rum and its rulings F1-F5, without a database."""

import pytest

from scorekeeper.rules import (
    VARIANTS,
    CardAlreadyPlayedError,
    CardNotationError,
    CardTwiceError,
    CornerNotAllowedError,
    HouseRuleError,
    InvalidLayoffError,
    InvalidMeldError,
    JokerError,
    JokerInDoubtError,
    Rummy500,
    SeatingError,
    SettlementError,
    SwapError,
    Table,
    classify,
    classify_pieces,
    find_variant,
    parse_cards,
    parse_pieces,
    seat_players,
)

RUM = find_variant("rummy_500")
PLAYERS = {1: "Ann", 2: "Bob", 3: "Cid"}


def hands(**cards: str) -> dict[str, list]:
    return {name: parse_cards(text) for name, text in cards.items()}


def value(text: str) -> int:
    return classify(parse_cards(text), RUM).value


# --- the rule system ---------------------------------------------------------------------------


def test_500_rum_is_a_rule_system_a_table_can_choose():
    assert VARIANTS["rummy_500"] is Rummy500
    assert RUM.name == "rummy_500"
    assert RUM.title == "500 Rum"
    assert (RUM.packs, RUM.jokers) == (1, 0)
    assert RUM.house_rules == {"end": {"target": 500}, "with_jokers": False, "two_packs": False}
    assert repr(RUM) == "find_variant('rummy_500')"


def test_500_rum_is_named_in_the_catalogue_in_english_and_german():
    assert RUM.label("en") == "500 Rum"
    assert RUM.label("de") == "500 Rum"


@pytest.mark.parametrize(("players", "cards"), [(2, 13), (3, 7), (4, 7), (5, 7), (6, 7)])
def test_two_players_are_dealt_13_cards_and_more_players_7(players, cards):
    assert RUM.cards_dealt(players) == cards


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_two_to_six_players_are_seated(count):
    names = [f"P{seat}" for seat in range(count)]
    assert seat_players(names, RUM) == names


@pytest.mark.parametrize("count", [1, 7])
def test_one_player_or_seven_are_refused(count):
    with pytest.raises(SeatingError, match="500 Rum is played by 2 to 6 players"):
        seat_players([f"P{seat}" for seat in range(count)], RUM)


@pytest.mark.parametrize(
    ("dealer", "players", "first"), [(0, 2, 1), (1, 2, 0), (0, 3, 1), (2, 3, 0), (5, 6, 0)]
)
def test_the_dealers_left_neighbour_plays_first(dealer, players, first):
    assert RUM.first_player_seat(dealer, players) == first
    assert RUM.first_player(list(range(players)), dealer) == first


@pytest.mark.parametrize("winner", [0, 1, None])
def test_the_deal_passes_to_the_left_whoever_won(winner):
    assert RUM.next_dealer_seat(0, winner, 2) == 1
    assert RUM.next_dealer_seat(2, winner, 3) == 0


# --- F1: values --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        ("Q♥ K♥ A♥", 35),
        ("A♥ 2♥ 3♥", 6),
        ("A♠ A♥ A♦", 45),
        ("6♠ 6♥ 6♦ 6♣", 24),
        ("5♦ 6♦ 7♦ 8♦ 9♦", 35),
        ("J♣ Q♣ K♣", 30),
        # Entered in any order, the scorekeeper finds the order.
        ("3♥ A♥ 2♥", 6),
    ],
)
def test_melds_score_their_cards_with_an_ace_15_or_1_before_a_2(meld, points):
    assert value(meld) == points


@pytest.mark.parametrize("meld", ["K♠ A♠ 2♠", "Q♠ K♠ A♠ 2♠ 3♠", "A♠ 2♠ K♠"])
def test_a_sequence_round_the_corner_is_refused(meld):
    with pytest.raises(CornerNotAllowedError, match="in 500 Rum the ace may not turn the corner"):
        classify(parse_cards(meld), RUM)


def test_in_a_sequence_of_the_whole_suit_the_ace_is_high():
    whole = "A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣"
    assert value(whole) == 54 + 30 + 15


def test_an_ace_laid_off_before_a_2_scores_1_and_after_a_king_15():
    table = Table(RUM)
    table.meld(1, parse_cards("2♣ 3♣ 4♣"))
    table.meld(2, parse_cards("J♦ Q♦ K♦"))
    assert table.lay_off(3, 1, parse_cards("A♣")).value == 1
    assert table.lay_off(4, 2, parse_cards("A♦")).value == 15


def test_an_ace_laid_off_onto_a_set_scores_15():
    table = Table(RUM)
    table.meld(1, parse_cards("A♠ A♥ A♦"))
    assert table.lay_off(2, 1, parse_cards("A♣")).value == 15


def test_a_layoff_is_valued_once_and_never_turns_the_corner():
    table = Table(RUM)
    table.meld(1, parse_cards("J♥ Q♥ K♥"))
    assert table.lay_off(2, 1, parse_cards("A♥")).value == 15
    assert table.melds[1].value == 30 + 15
    with pytest.raises(InvalidLayoffError, match="may not turn the corner"):
        table.lay_off(3, 1, parse_cards("2♥"))


def test_a_card_on_the_table_cannot_be_melded_again():
    table = Table(RUM)
    table.meld(1, parse_cards("7♠ 7♥ 7♦"))
    with pytest.raises(CardAlreadyPlayedError):
        table.meld(2, parse_cards("5♠ 6♠ 7♠"))


# --- F2: the settlement ------------------------------------------------------------------------


def test_the_winner_books_0_and_every_other_player_minus_the_hand_with_an_ace_15():
    settled = RUM.settle(["Ann", "Bob", "Cid"], "Ann", hands(Bob="A♣ K♣", Cid="7♥ 2♠"))
    assert settled.gains == {"Ann": 0, "Bob": -25, "Cid": -9}
    assert settled.hand_points == {"Bob": 25, "Cid": 9}
    assert settled.factors == {"Bob": 1, "Cid": 1}
    assert settled.romme is False
    assert not settled.abandoned


def test_a_hand_counted_at_the_table_is_taken_off_as_given():
    assert RUM.settle(["Ann", "Bob"], "Ann", {"Bob": 90}).gains == {"Ann": 0, "Bob": -90}


@pytest.mark.parametrize(
    ("table", "hand", "booked"), [(87, "90", -3), (20, "A♣ K♣", -5), (45, "7♥", 38)]
)
def test_a_player_books_the_table_minus_the_hand(table, hand, booked):
    left = int(hand) if hand.isdigit() else parse_cards(hand)
    settled = RUM.settle(["Ann", "Bob"], "Ann", {"Bob": left})
    assert table + settled.gains["Bob"] == booked


def test_finishing_a_game_books_what_the_table_and_the_hands_say():
    table = Table(RUM)
    melded = {1: table.meld(10, parse_cards("Q♥ K♥ A♥")).value}
    melded[2] = table.meld(11, parse_cards("2♠ 3♠ 4♠")).value
    melded[3] = 0
    settled = RUM.finish(
        PLAYERS,
        1,
        {2: parse_cards("A♣ 9♦"), 3: parse_cards("K♣ Q♣ 5♦")},
        entry_players=[1, 2],
        on_table=table.lying(),
    )
    points = {player: melded[player] + settled.gains[player] for player in PLAYERS}
    assert points == {1: 35, 2: 9 - 24, 3: -25}


def test_a_card_in_a_hand_that_lies_on_the_table_is_refused():
    table = Table(RUM)
    table.meld(10, parse_cards("Q♥ K♥ A♥"))
    with pytest.raises(CardAlreadyPlayedError):
        RUM.finish(
            PLAYERS,
            1,
            {2: parse_cards("A♥"), 3: parse_cards("2♣")},
            entry_players=[1],
            on_table=table.lying(),
        )


# --- F3: no Rommé hand -------------------------------------------------------------------------


def test_going_out_at_once_is_no_romme_hand_and_doubles_nothing():
    settled = RUM.finish(
        {1: "Ann", 2: "Bob"}, 1, {2: parse_cards("K♣")}, entry_players=[1], entry_cards=[13]
    )
    assert settled.romme is False
    assert settled.romme_possible is False
    assert settled.factors == {2: 1}
    assert settled.gains == {1: 0, 2: -10}
    assert settled.romme_why is not None
    assert settled.romme_why.render("en") == (
        "500 Rum has no Rommé hand: going out at once earns nothing extra."
    )


@pytest.mark.parametrize("winner", [1, None])
def test_a_romme_hand_is_refused(winner):
    with pytest.raises(SettlementError, match="500 Rum has no Rommé hand") as refused:
        RUM.finish(
            {1: "Ann", 2: "Bob"},
            winner,
            {2: parse_cards("K♣"), **({} if winner else {1: parse_cards("2♣")})},
            entry_players=[1],
            entry_cards=[13],
            romme=True,
        )
    assert refused.value.as_message.render("de") == (
        "500 Rum kennt keine Rommé-Hand: auf einmal auszumachen bringt nichts extra."
    )


# --- F4: the session ---------------------------------------------------------------------------


def test_the_session_is_won_by_the_highest_total_at_or_above_500():
    standing = RUM.standing({"Ann": 510, "Bob": 530, "Cid": -40}, 6)
    assert standing.winner == "Bob"
    assert standing.target == 500


def test_a_session_below_the_target_plays_on_with_negative_totals():
    standing = RUM.standing({"Ann": 499, "Bob": -12}, 6)
    assert standing.winner is None
    assert not standing.over
    assert standing.to_go("Bob") == 512


def test_a_tie_at_the_top_plays_on():
    standing = RUM.standing({"Ann": 520, "Bob": 520}, 6)
    assert standing.winner is None
    assert standing.tie_at_top


@pytest.mark.parametrize(
    ("end", "totals", "games", "winner"),
    [
        ({"target": 100}, {"Ann": 100, "Bob": 90}, 2, "Ann"),
        ({"games": 3}, {"Ann": -10, "Bob": -30}, 3, "Ann"),
        ({"games": 3}, {"Ann": 300, "Bob": 200}, 2, None),
    ],
)
def test_a_table_plays_to_another_target_or_a_number_of_games(end, totals, games, winner):
    assert find_variant("rummy_500", {"end": end}).standing(totals, games).winner == winner


@pytest.mark.parametrize(
    "rules",
    [{"end": {"limit": -500}}, {"end": {"target": 0}}, {"romme_doubling": "loser"}],
)
def test_house_rules_500_rum_does_not_have_are_refused(rules):
    with pytest.raises(HouseRuleError):
        find_variant("rummy_500", rules)


# --- F5: nobody out ----------------------------------------------------------------------------


def test_a_game_nobody_went_out_of_takes_every_hand_off_and_has_no_winner():
    settled = RUM.finish(
        PLAYERS,
        None,
        {1: parse_cards("A♠ 3♦"), 2: 12, 3: parse_cards("K♣")},
        entry_players=[1, 2],
    )
    assert settled.winner is None
    assert settled.gains == {1: -18, 2: -12, 3: -10}
    assert settled.hand_points == {1: 18, 2: 12, 3: 10}
    assert settled.factors == {1: 1, 2: 1, 3: 1}
    assert not settled.abandoned


def test_a_game_nobody_went_out_of_needs_every_hand():
    with pytest.raises(SettlementError, match="enter the cards left in every player's hand"):
        RUM.finish(PLAYERS, None, {1: parse_cards("A♠"), 2: 12}, entry_players=[1])


def test_a_game_nobody_went_out_of_is_news_without_a_winner_and_explained():
    settled = RUM.finish(PLAYERS, None, {1: parse_cards("A♠"), 2: 12, 3: 2}, entry_players=[1])
    news = RUM.game_news(2, PLAYERS, settled).render("en")
    assert news == "Game 2 is over: nobody went out; Ann books -15, Bob books -12, Cid books -2."
    said = [message.render("en") for message in RUM.settlement_explained(settled, "")]
    assert said == [
        "Nobody went out: every player books minus the cards left in their hand (an ace 15).",
        "Every player's game is what their melds and layoffs scored minus their hand.",
    ]
    assert RUM.shows_game_net() and not find_variant().shows_game_net()


def test_a_player_with_an_empty_hand_went_out():
    with pytest.raises(SettlementError, match="a player with none went out"):
        RUM.finish(PLAYERS, None, {1: [], 2: 12, 3: 4}, entry_players=[1])


def test_a_hand_of_nobody_out_holding_a_card_on_the_table_is_refused():
    table = Table(RUM)
    table.meld(10, parse_cards("7♠ 7♥ 7♦"))
    with pytest.raises(CardAlreadyPlayedError):
        RUM.finish(
            PLAYERS,
            None,
            {1: parse_cards("7♠"), 2: 12, 3: 4},
            entry_players=[1],
            on_table=table.lying(),
        )


def test_a_game_given_up_without_hands_is_abandoned():
    settled = RUM.finish(PLAYERS, None, None, entry_players=[1, 2])
    assert settled.abandoned
    assert settled.gains == {1: 0, 2: 0, 3: 0}
    assert settled.hand_points == {}


def test_no_hands_given_at_all_is_no_abandon_but_a_game_nobody_went_out_of_missing_its_hands():
    with pytest.raises(SettlementError, match="enter the cards left in every player's hand"):
        RUM.finish(PLAYERS, None, {}, entry_players=[1, 2])


def test_a_hand_given_for_the_winner_is_refused():
    with pytest.raises(SettlementError, match="The player who went out has no cards left"):
        RUM.finish(PLAYERS, 1, {1: parse_cards("2♣"), 2: 5, 3: 7}, entry_players=[1])


def test_the_hands_a_finish_settles_are_kept_with_nobody_out_only_in_500_rum():
    assert RUM.hands_settled(None, {2: "K♣"}) == {2: "K♣"}
    assert find_variant("treppenromme").hands_settled(None, {2: "K♣"}) == {}
    assert find_variant("german_rummy").hands_settled(1, {2: "K♣"}) == {2: "K♣"}


def test_hand_sizes_are_not_checked():
    many = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦"
    settled = RUM.settle(["Ann", "Bob"], "Ann", hands(Bob=many))
    assert settled.gains["Bob"] == -(54 + 30 + 15 + 35)


# --- F6: jokers (a house rule) -----------------------------------------------------------------

JOKERS = find_variant("rummy_500", {"with_jokers": True})


def with_jokers(text: str) -> int:
    return classify_pieces(parse_pieces(text), JOKERS).value


def test_jokers_are_a_house_rule_off_by_default_two_a_pack():
    assert RUM.jokers == 0
    assert (JOKERS.packs, JOKERS.jokers) == (1, 2)
    assert JOKERS.house_rules == {"end": {"target": 500}, "with_jokers": True, "two_packs": False}
    assert JOKERS.rules_said("en") == ("500 Rum", "to 500 points", "two jokers a pack, each 15")
    assert [rule["name"] for rule in RUM.describe()["rules"]] == ["end", "with_jokers", "two_packs"]


@pytest.mark.parametrize(
    ("meld", "points"),
    [
        # F6: a joker counts 15 wherever it lies, whatever card it stands for.
        ("7♠ 7♥ JKR", 29),
        ("JKR=A♦ 2♦ 3♦", 20),
        ("JKR=4♦ 2♦ 3♦", 20),
        ("5♠ JKR 7♠", 27),
        ("J♣ Q♣ JKR A♣", 50),
        ("A♠ A♥ JKR", 45),
        ("7♠ 7♥ JKR JKR", 44),
        ("3♠ JKR JKR 6♠", 39),
    ],
)
def test_a_joker_scores_15_wherever_it_lies_in_a_meld(meld, points):
    assert with_jokers(meld) == points


def test_a_joker_in_doubt_is_said_by_the_recorder_as_in_german_rummy():
    with pytest.raises(JokerInDoubtError) as doubt:
        classify_pieces(parse_pieces("JKR 2♦ 3♦"), JOKERS)
    assert [card.code for card in doubt.value.choices] == ["A♦", "4♦"]
    # Either choice is worth the same: 20.
    assert {with_jokers(f"JKR={card.code} 2♦ 3♦") for card in doubt.value.choices} == {20}


@pytest.mark.parametrize("meld", ["6♠ JKR JKR", "JKR JKR 5♠"])
def test_a_meld_holds_at_least_as_many_natural_cards_as_jokers(meld):
    with pytest.raises(JokerError):
        classify_pieces(parse_pieces(meld), JOKERS)


def test_a_joker_laid_off_scores_15_for_whoever_lays_it_off():
    table = Table(JOKERS)
    table.meld(1, parse_pieces("7♠ 7♥ 7♦"))
    table.meld(2, parse_pieces("J♦ Q♦ K♦"))
    assert table.lay_off(3, 1, parse_pieces("JKR")).value == 15
    assert table.lay_off(4, 2, parse_pieces("JKR=A♦")).value == 15
    assert str(table.melds[2]) == "J♦ Q♦ K♦ JKR=A♦"


def test_a_third_joker_is_not_in_one_pack():
    table = Table(JOKERS)
    table.meld(1, parse_pieces("7♠ 7♥ JKR"))
    table.meld(2, parse_pieces("9♣ JKR J♣"))
    with pytest.raises(CardAlreadyPlayedError, match="2 jokers"):
        table.meld(3, parse_pieces("4♦ 4♥ JKR"))


@pytest.mark.parametrize(("hand", "points"), [("JKR 7♥", 22), ("JKR 2♣", 17), ("JKR JKR", 30)])
def test_a_joker_left_in_a_hand_costs_15(hand, points):
    settled = JOKERS.settle(["Ann", "Bob"], "Ann", {"Bob": parse_pieces(hand)})
    assert settled.gains == {"Ann": 0, "Bob": -points}
    assert settled.hand_points == {"Bob": points}


def test_a_hand_may_hold_at_most_the_jokers_of_the_packs():
    with pytest.raises(CardAlreadyPlayedError):
        JOKERS.settle(
            ["Ann", "Bob", "Cid"],
            "Ann",
            {"Bob": parse_pieces("JKR JKR"), "Cid": parse_pieces("JKR")},
        )
    assert JOKERS.hand_points_range() == (2, RUM.hand_points_range()[1] + 2 * 15)


def test_a_joker_in_a_hand_of_a_game_nobody_went_out_of_costs_15():
    settled = JOKERS.finish(
        PLAYERS, None, {1: parse_pieces("JKR"), 2: 12, 3: parse_pieces("JKR A♠")}, entry_players=[]
    )
    assert settled.gains == {1: -15, 2: -12, 3: -30}


def test_a_joker_in_a_hand_when_both_lie_on_the_table_is_refused():
    table = Table(JOKERS)
    table.meld(1, parse_pieces("7♠ 7♥ JKR"))
    table.meld(2, parse_pieces("9♣ JKR J♣"))
    with pytest.raises(CardAlreadyPlayedError):
        JOKERS.finish(
            {1: "Ann", 2: "Bob"},
            1,
            {2: parse_pieces("JKR")},
            entry_players=[1],
            on_table=table.lying(),
        )


def test_the_settlement_explains_that_a_joker_in_a_hand_costs_15():
    said = JOKERS.minus_explained("Ann").render("en")
    assert said.endswith("(an ace 15, a joker 15).")


def test_a_joker_is_never_swapped():
    table = Table(JOKERS)
    table.meld(1, parse_pieces("6♠ 6♥ JKR"))
    with pytest.raises(SwapError, match="In 500 Rum a joker stays where it lies"):
        table.swap(2, 1, parse_pieces("6♣"), parse_pieces("8♥ JKR 10♥"))
    assert not JOKERS.swaps_jokers()


def test_there_is_no_opening_minimum_with_jokers():
    assert not JOKERS.has_opening()
    assert JOKERS.opening_minimum() == 0
    JOKERS.refuse_before_opening("layoff", [], "Ann")


def test_without_the_house_rule_a_joker_is_refused():
    with pytest.raises(CardNotationError, match="played without jokers"):
        RUM.read_cards("7♠ 7♥ JKR")
    with pytest.raises(InvalidMeldError, match="500 Rum is played without jokers"):
        classify_pieces(parse_pieces("7♠ 7♥ JKR"), RUM)


# --- F7: two packs (a house rule) --------------------------------------------------------------

TWO_PACKS = find_variant("rummy_500", {"two_packs": True})
BOTH = find_variant("rummy_500", {"two_packs": True, "with_jokers": True})


def test_two_packs_are_a_house_rule_off_by_default():
    assert (TWO_PACKS.packs, TWO_PACKS.jokers, TWO_PACKS.max_players) == (2, 0, 8)
    assert (BOTH.packs, BOTH.jokers) == (2, 4)
    assert TWO_PACKS.rules_said("en")[2:] == ("two packs, 7 cards each",)
    assert Rummy500.most_players() == 8
    assert RUM.max_players == 6


@pytest.mark.parametrize("players", [2, 3, 6, 7, 8])
def test_with_two_packs_everyone_is_dealt_seven_cards(players):
    assert TWO_PACKS.cards_dealt(players) == 7


@pytest.mark.parametrize("count", [2, 7, 8])
def test_with_two_packs_up_to_eight_players_are_seated(count):
    names = [f"P{seat}" for seat in range(count)]
    assert seat_players(names, TWO_PACKS) == names


def test_with_two_packs_nine_players_are_refused():
    with pytest.raises(SeatingError, match="500 Rum is played by 2 to 8 players"):
        seat_players([f"P{seat}" for seat in range(9)], TWO_PACKS)


def test_with_two_packs_a_card_lies_twice_but_not_three_times():
    table = Table(TWO_PACKS)
    table.meld(1, parse_cards("7♠ 7♥ 7♦"))
    table.meld(2, parse_cards("5♥ 6♥ 7♥"))
    with pytest.raises(CardAlreadyPlayedError, match="7♥"):
        table.meld(3, parse_cards("7♥ 8♥ 9♥"))


def test_with_two_packs_a_meld_still_holds_no_two_equal_cards():
    with pytest.raises(CardTwiceError):
        classify(parse_cards("K♥ K♥ K♠"), TWO_PACKS)


def test_with_two_packs_a_hand_may_hold_a_card_once_on_the_table_but_not_a_third_copy():
    table = Table(TWO_PACKS)
    table.meld(1, parse_cards("7♠ 7♥ 7♦"))
    settled = TWO_PACKS.finish(
        {1: "Ann", 2: "Bob"}, 1, {2: parse_cards("7♥")}, entry_players=[1], on_table=table.lying()
    )
    assert settled.gains == {1: 0, 2: -7}
    with pytest.raises(CardAlreadyPlayedError):
        TWO_PACKS.finish(
            {1: "Ann", 2: "Bob"},
            1,
            {2: parse_cards("7♥ 7♥")},
            entry_players=[1],
            on_table=table.lying(),
        )


def test_with_two_packs_and_jokers_four_jokers_lie_and_a_fifth_is_refused():
    table = Table(BOTH)
    for key, meld in enumerate(["7♠ 7♥ JKR", "9♣ JKR J♣", "4♦ 4♥ JKR", "K♠ K♣ JKR"], 1):
        assert 15 in table.meld(key, parse_pieces(meld)).values
    with pytest.raises(CardAlreadyPlayedError, match="4 jokers"):
        table.meld(5, parse_pieces("2♠ 2♥ JKR"))
