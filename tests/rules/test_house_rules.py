"""House rules: their words in both languages, the frozen choice of a session, the refusals."""

from __future__ import annotations

import pytest

from scorekeeper.rules import (
    VARIANTS,
    HouseRule,
    HouseRuleError,
    HouseRules,
    find_variant,
)
from scorekeeper.rules.cards import parse_cards, parse_pieces

# Words a German table says as the English do.
SAME_IN_GERMAN = {"Hand-Rommé"}
EVERY_RULE = [
    pytest.param(variant, rule, id=f"{name}-{rule.key}")
    for name, variant in VARIANTS.items()
    for rule in variant.all_house_rules()
]


# --- parsed once, frozen --------------------------------------------------------------------------


def test_a_sessions_house_rules_are_checked_once_into_one_frozen_value():
    variant = find_variant("treppenromme", {"end": {"games": 5}})
    assert variant.house is variant.house
    assert isinstance(variant.house, HouseRules)
    with pytest.raises(AttributeError):
        variant.house._values = {}  # type: ignore[misc]
    with pytest.raises(TypeError):
        variant.house["end"]["games"] = 6  # type: ignore[index]
    assert variant.house["end"] == {"games": 5}


def test_the_plain_house_rules_are_a_copy_that_changes_nothing():
    variant = find_variant("german_rummy")
    copied = variant.house_rules
    copied["end"]["limit"] = -100
    copied["opening"] = 0
    assert variant.house_rules["end"] == {"limit": -500}
    assert variant.opening_minimum() == 40


def test_equal_house_rules_make_equal_and_equally_hashed_rule_systems():
    one = find_variant("german_rummy", {"joker_in_hand": 25, "opening": 40})
    other = find_variant("german_rummy", {"opening": 40, "joker_in_hand": 25})
    assert one.house == other.house and hash(one.house) == hash(other.house)
    assert one == other and hash(one) == hash(other)
    assert one != find_variant("german_rummy")


def test_the_house_rules_read_back_as_they_are_written():
    rules = HouseRules({"end": {"games": 5}, "romme_doubling": "loser"})
    assert eval(repr(rules)) == rules


# --- defaults and refusals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "defaults"),
    [
        ("treppenromme", {"end": {"target": 500}, "romme_doubling": "winner"}),
        (
            "german_rummy",
            {
                "end": {"limit": -500},
                "opening": 40,
                "joker_in_hand": 30,
                "hand_romme_doubles": False,
                "joker_swap_from_set": "any",
            },
        ),
        ("boathouse_rum", {"end": {"target": 100}}),
    ],
)
def test_every_house_rule_left_out_takes_its_default(name, defaults):
    assert find_variant(name).house == defaults
    assert find_variant(name).house_rules == defaults


@pytest.mark.parametrize(
    ("name", "chosen", "sentence"),
    [
        (
            "german_rummy",
            {"joker_in_hand": 15},
            "The house rule “joker_in_hand” allows 20 | 25 | 30.",
        ),
        (
            "german_rummy",
            {"hand_romme_doubles": 1},
            "The house rule “hand_romme_doubles” allows false | true.",
        ),
        (
            "german_rummy",
            {"joker_swap_from_set": "three"},
            "The house rule “joker_swap_from_set” allows any | four.",
        ),
        ("german_rummy", {"opening": -1}, "The house rule “opening” allows 0…2147483647."),
        ("german_rummy", {"opening": True}, "The house rule “opening” allows 0…2147483647."),
        (
            "treppenromme",
            {"romme_doubling": "both"},
            "The house rule “romme_doubling” allows winner | loser.",
        ),
        (
            "treppenromme",
            {"end": {"limit": -5}},
            'The house rule “end” allows {"target": 1…2147483647} | {"games": 1…1000}.',
        ),
        (
            "boathouse_rum",
            {"romme_doubling": "loser"},
            "Boathouse Rum has no house rule “romme_doubling”; its house rules are end.",
        ),
    ],
)
def test_a_value_a_house_rule_does_not_allow_is_refused_in_the_same_words(name, chosen, sentence):
    with pytest.raises(HouseRuleError) as refused:
        find_variant(name, chosen)
    assert str(refused.value) == sentence


# --- the words ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "rule"), EVERY_RULE)
def test_every_house_rule_has_a_label_and_a_description_in_english_and_german(variant, rule):
    assert rule.label is not None and rule.description is not None
    for words in (rule.label, rule.description):
        assert words.render("en")
        assert words.render("de") != words.render("en") or words.singular in SAME_IN_GERMAN


@pytest.mark.parametrize(("variant", "rule"), EVERY_RULE)
def test_every_value_a_form_offers_is_one_the_rule_allows(variant, rule):
    for option in rule.offered_options():
        assert rule.check(option.value) == option.value
        assert option.label("de") and option.label("en")


def test_a_form_offers_the_costs_of_a_joker_from_the_highest():
    rule = next(
        rule for rule in VARIANTS["german_rummy"].HOUSE_RULES if rule.key == "joker_in_hand"
    )
    assert [option.value for option in rule.offered_options()] == [30, 25, 20]
    assert rule.describe()["allowed"] == [20, 25, 30]


def test_the_rules_of_a_session_say_the_seed_003_doubling():
    variant = find_variant("treppenromme", {"romme_doubling": "loser", "end": {"games": 1}})
    assert variant.rules_said("en") == (
        "Treppenrommé",
        "1 game",
        "the hand of a player who never melded doubles",
    )
    assert variant.rules_said("de")[1:] == (
        "1 Spiel",
        "die Hand eines Spielers, der nie ausgelegt hat, zählt doppelt",
    )


def test_the_rules_of_a_session_say_only_the_house_rules_worth_saying():
    usual = find_variant("german_rummy", {"opening": 0})
    assert usual.rules_said("en") == (
        "German Rummy",
        "until a total reaches -500",
        "a joker in a hand 30 points",
    )
    strict = find_variant(
        "german_rummy", {"hand_romme_doubles": True, "joker_swap_from_set": "four"}
    )
    assert strict.rules_said("de") == (
        "Rommé",
        "bis ein Stand -500 erreicht",
        "erstes Auslegen mindestens 40",
        "ein Joker in der Hand 30 Punkte",
        "ein Hand-Rommé verdoppelt die Minuspunkte",
        "ein Joker verlässt einen Satz nur für vier echte Karten",
    )


def test_a_house_rule_without_words_for_a_value_says_nothing_of_it():
    assert HouseRule("quiet", "a", choices=("a", "b")).say("b") is None


# --- the news of a game and the explanation of its settlement ------------------------------------


def test_the_news_of_a_game_with_minus_points_is_what_each_loser_books():
    variant = find_variant("german_rummy")
    hands = {2: parse_pieces("A♠ JKR"), 3: parse_pieces("7♥")}
    settled = variant.settle([1, 2, 3], 1, hands)
    news = variant.game_news(4, {1: "Ann", 2: "Bob", 3: "Cid"}, settled)
    assert news.render("en") == "Game 4 is over: Ann went out; Bob books -41, Cid books -7."


def test_the_news_of_a_game_whose_winner_collects_is_the_winners_gain():
    variant = find_variant("boathouse_rum")
    settled = variant.settle([1, 2], 1, {2: parse_cards("7♠ 9♥")})
    news = variant.game_news(1, {1: "Ann", 2: "Bob"}, settled)
    assert news.render("de") == "Spiel 1 ist vorbei: Ann hat ausgemacht und bekommt 16 Punkte."


def test_a_settlement_in_minus_points_is_explained_with_the_cost_of_a_joker_chosen():
    variant = find_variant("german_rummy", {"joker_in_hand": 20})
    settled = variant.settle([1, 2], 1, {2: parse_pieces("JKR")})
    said = [message.render("en") for message in variant.settlement_explained(settled, "Ann")]
    assert said == [
        "Ann went out and books 0; every other player books minus the cards left in their hand "
        "(an ace 11, a joker 20).",
        "Melds score nothing: only the cards left in the hands count.",
    ]


def test_a_seed_003_settlement_is_explained_by_the_hands_that_never_melded():
    variant = find_variant("treppenromme", {"romme_doubling": "loser"})
    settled = variant.settle(
        [1, 2, 3], 1, {2: parse_cards("K♣"), 3: parse_cards("2♣")}, never_melded=[2]
    )
    said = [message.render("en") for message in variant.settlement_explained(settled, "Ann")]
    assert (
        said[0]
        == "The hands of the players who never melded or laid off count double: Ann scores 22."
    )


def test_whoever_has_an_entry_in_a_game_has_opened():
    assert find_variant("german_rummy").opened([2, 1, 2]) == {1, 2}
