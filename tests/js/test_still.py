"""Holding the picker still (still.js): what is drawn above it scrolls the page by as much."""

from __future__ import annotations

from tests.js.conftest import Modules

HELD = """async (grows) => {
    const { holdingStill } = await import("/js/still.js");
    // Heights set through the CSSOM: the page's policy refuses inline style attributes.
    const main = document.querySelector("main");
    [["above", 300], ["held", 50], ["below", 3000]].forEach(([id, px]) => {
        const part = document.createElement("div");
        part.id = id;
        part.style.height = px + "px";
        main.append(part);
    });
    window.scrollTo(0, 200);
    const before = document.querySelector("#held").getBoundingClientRect().top;
    const answer = holdingStill(() => document.querySelector("#held"), () => {
        document.querySelector("#above").style.height = (300 + grows) + "px";
        return "changed";
    });
    return [answer, before, document.querySelector("#held").getBoundingClientRect().top, scrollY];
}"""


def test_a_taller_part_above_scrolls_the_page_down_by_its_growth(modules: Modules) -> None:
    answer, before, after, scrolled = modules.run(HELD, 60)
    assert answer == "changed"
    assert after == before
    assert scrolled == 260


def test_a_shorter_part_above_scrolls_the_page_up(modules: Modules) -> None:
    _, before, after, scrolled = modules.run(HELD, -100)
    assert after == before
    assert scrolled == 100
