"""The outbox asks the browser to keep its storage (outbox.js), where the browser offers it."""

from __future__ import annotations

from tests.js.conftest import Modules

# Count the questions, and keep what the browser itself answered to each.
SPY = """() => {
    window.asked = [];
    const persist = navigator.storage.persist.bind(navigator.storage);
    navigator.storage.persist = () => persist().then((answer) => {
        asked.push(answer);
        return answer;
    });
}"""
ADD_TWO = """async () => {
    const outbox = await import("/js/outbox.js");
    await outbox.add({ session: "s1", url: "/games/1/melds", fields: [["cards", "3♦"]] });
    await outbox.add({ session: "s1", url: "/games/1/melds", fields: [["cards", "4♦"]] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    return [(await outbox.list("s1")).length, window.asked, await navigator.storage.persisted()];
}"""


def test_the_first_write_kept_asks_the_browser_once_to_keep_the_outbox(modules: Modules) -> None:
    modules.run(SPY)
    kept, asked, persisted = modules.run(ADD_TWO)
    assert kept == 2
    # Asked once per page; whatever the browser answers, the writes are kept. Headless
    # Chromium answers false: no site engagement, no installed app (docs/reliability.md).
    assert len(asked) == 1 and asked[0] is persisted


def test_a_page_that_is_not_a_secure_context_does_not_ask(modules: Modules) -> None:
    modules.run(SPY)
    modules.run("() => { Object.defineProperty(window, 'isSecureContext', { value: false }); }")
    kept, asked, _ = modules.run(ADD_TWO)
    assert kept == 2 and asked == []
