"""The picker's grid (grid.js): what may be tapped, and the copies left with two packs."""

from __future__ import annotations

from tests.js.conftest import Modules

# A grid as templates/_macros.html draws it: with two packs each card says its copies left
# (data-left) and the jokers theirs; with one pack a card on the table is taken (data-taken).
GRID = """async ([packs, picked, elsewhere, waiting]) => {
    const { Grid } = await import("/js/grid.js");
    const two = packs === 2;
    const card = (code, left, taken) => `<button type="button" class="pick" data-card="${code}"
        aria-label="${code}"${two ? ` data-left="${left}"` : ""}
        ${taken ? " disabled data-taken" : ""}>
        ${code}${two ? `<small class="left">${left}</small>` : ""}</button>`;
    document.querySelector("main").innerHTML = `<div data-picker hidden
        data-t-left="{card}: {count} left">
        ${card("8♠", 2, false)}${card("8♥", 1, false)}${card("8♦", 0, true)}
        ${two ? card("JKR", 3, false) : ""}
        <button type="button" data-card="-JKR" hidden>JKR −</button></div>`;
    const grid = new Grid(document.querySelector("[data-picker]"), () => {});
    grid.waiting = waiting;
    grid.show(picked, elsewhere);
    const shown = {};
    document.querySelectorAll("button[data-card]").forEach((b) => {
        const left = b.querySelector(".left");
        shown[b.dataset.card] = [left ? Number(left.textContent) : null, b.disabled,
            b.getAttribute("aria-pressed"), b.getAttribute("aria-label")];
    });
    window.grid = grid;
    return shown;
}"""
TOGGLED = (
    """([picked, card, elsewhere, most]) => window.grid.toggled(picked, card, elsewhere, most)"""
)


def test_with_two_packs_each_card_says_its_copies_left(modules: Modules) -> None:
    shown = modules.run(GRID, [2, [], [], []])
    assert shown["8♠"] == [2, False, "false", "8♠: 2 left"]
    assert shown["8♥"] == [1, False, "false", "8♥: 1 left"]
    assert shown["8♦"][:2] == [0, True]  # both on the table
    assert shown["JKR"] == [3, False, "false", "JKR: 3 left"]


def test_a_card_picked_or_held_elsewhere_in_the_entry_takes_a_copy(modules: Modules) -> None:
    shown = modules.run(GRID, [2, ["8♠"], ["8♥"], []])
    assert shown["8♠"] == [1, False, "true", "8♠: 1 left"]
    assert shown["8♥"] == [0, True, "false", "8♥: 0 left"]


def test_entries_waiting_on_the_phone_take_each_card_once(modules: Modules) -> None:
    # Dörte's 8♠ waits: one copy of 8♠ is left, and drawing the waiting entries again (a
    # reload, another entry added) counts it once, not once more each time.
    shown = modules.run(GRID, [2, [], [], ["8♠"]])
    assert shown["8♠"][:2] == [1, False]
    modules.run("() => { window.grid.waiting = ['8♠']; window.grid.show([], []); }")
    modules.run("() => { window.grid.waiting = ['8♠']; window.grid.show([], []); }")
    assert (
        modules.run("() => document.querySelector('[data-card=\"8♠\"] .left').textContent") == "1"
    )
    # Taken out of the outbox (undone while it waited): both copies again.
    modules.run("() => { window.grid.waiting = []; window.grid.show([], []); }")
    assert (
        modules.run("() => document.querySelector('[data-card=\"8♠\"] .left').textContent") == "2"
    )
    shown = modules.run(GRID, [2, [], [], ["8♠", "8♠", "JKR"]])
    assert shown["8♠"][:2] == [0, True]
    assert shown["JKR"][0] == 2


def test_a_tap_adds_a_copy_while_one_is_left_and_takes_them_back_after(modules: Modules) -> None:
    modules.run(GRID, [2, [], [], []])
    # The finish: a hand may hold both copies.
    assert modules.run(TOGGLED, [[], "8♠", [], 6]) == ["8♠"]
    assert modules.run(TOGGLED, [["8♠"], "8♠", [], 6]) == ["8♠", "8♠"]
    assert modules.run(TOGGLED, [["8♠", "8♠"], "8♠", [], 6]) == []
    # An entry's meld: one copy of a card, the next tap takes it back.
    assert modules.run(TOGGLED, [["8♠"], "8♠", [], 1]) == []
    # The last copy held elsewhere in the entry: nothing to add.
    assert modules.run(TOGGLED, [[], "8♥", ["8♥"], 1]) == []
    # Jokers one at a time, taken back one at a time.
    assert modules.run(TOGGLED, [["JKR"], "JKR", [], 6]) == ["JKR", "JKR"]
    assert modules.run(TOGGLED, [["JKR", "8♠", "JKR=9♠"], "-JKR", [], 6]) == ["JKR", "8♠"]


def test_with_one_pack_a_card_on_the_table_or_waiting_cannot_be_tapped(modules: Modules) -> None:
    shown = modules.run(GRID, [1, ["8♠"], [], ["8♥"]])
    assert shown["8♠"] == [None, False, "true", "8♠"]
    assert shown["8♥"][:3] == [None, True, "false"]
    assert shown["8♦"][1] is True
