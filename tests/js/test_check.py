"""The page's live check (check.js): a question to the server that writes nothing."""

from __future__ import annotations

from playwright.sync_api import Route

from tests.js.conftest import ORIGIN, Modules

ASK = """async () => {
    const check = await import("/js/check.js");
    const first = await check.ask("/games/1/check", { cards: "3♦ 3♥ 3♠" });
    const second = await check.ask("/games/1/check", { cards: "3♦ 3♥ 3♠" });
    return [first, second];
}"""
TOO_OLD = "This form was open too long. Reload the page and try again."


def test_a_question_with_a_token_the_server_no_longer_takes_is_asked_again_with_a_fresh_one(
    modules: Modules,
) -> None:
    tokens: list[str] = []

    def check(route: Route) -> None:
        token = route.request.headers.get("x-csrftoken", "")
        tokens.append(token)
        if token == "fresh":
            route.fulfill(json={"valid": True})
        else:
            route.fulfill(status=400, json={"error": TOO_OLD})

    modules.page.route(f"{ORIGIN}/games/1/check", check)
    modules.page.route(
        f"{ORIGIN}/csrf-token", lambda route: route.fulfill(json={"csrf_token": "fresh"})
    )
    assert modules.run(ASK) == [{"valid": True}, {"valid": True}]
    # The page's own token once, then the renewed one, kept for the questions after it.
    assert tokens == ["token", "fresh", "fresh"]


def test_a_question_refused_with_a_fresh_token_too_answers_the_refusal(modules: Modules) -> None:
    modules.page.route(
        f"{ORIGIN}/games/1/check", lambda route: route.fulfill(status=400, json={"error": TOO_OLD})
    )
    modules.page.route(
        f"{ORIGIN}/csrf-token", lambda route: route.fulfill(json={"csrf_token": "fresh"})
    )
    assert modules.run(ASK) == [{"error": TOO_OLD}, {"error": TOO_OLD}]
