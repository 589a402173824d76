"""The one ordered queue (send.js over outbox.js): the order of the writes, and their refusals.

The writes go to a stand-in for the network that holds each request until the test answers it.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page

from tests.js.conftest import Modules

QUEUE = """async () => {
    const send = await import("/js/send.js");
    const outbox = await import("/js/outbox.js");
    window.queue = { send, outbox, sent: [], urls: [], held: {}, settled: {}, late: [] };
    send.transport.send = (entry) => new Promise((resolve, reject) => {
        queue.sent.push(entry.label);
        queue.urls.push(entry.url);
        queue.held[entry.label] = { resolve, reject };
    });
    outbox.onLate((note) => queue.late.push(note.label));
}"""
WRITE = """async ([session, label, meta]) => {
    const url = (meta && meta.url) || "/games/1/melds";
    const written = await queue.send.write(session, { url, fields: [["cards", label]] },
        Object.assign({ label }, meta || {}));
    written.answer.then((result) => {
        queue.settled[label] = result.refused ? "refused" : result.waits ? "waits"
            : result.elsewhere ? "elsewhere" : "answered " + JSON.stringify(result.body);
    });
    return written.item.id;
}"""
ANSWER = """([label, how]) => {
    const held = queue.held[label];
    delete queue.held[label];
    if (how === "no answer") { held.reject(new Error("the network is gone")); return; }
    if (how === "refused") {
        held.resolve({ ok: false, status: 200, reason: "3♦ is on the table." });
        return;
    }
    held.resolve({ ok: true, status: 200, answer: how });
}"""
LIST = """async (session) =>
    (await queue.outbox.list(session)).map((item) => [item.label, item.refused])"""
# Send again what waits (not awaited: a write it sends is held until the test answers it).
FLUSH = "() => { queue.send.flush('s1'); }"
NO_WEB_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined});"


def queue(modules: Modules, page: Page | None = None) -> Page:
    """Put the stand-in network under the queue of a page; return the page."""
    page = page or modules.page
    modules.run(QUEUE, page=page)
    return page


def sent(page: Page, *labels: str) -> None:
    """Wait until exactly these writes were sent, in this order; then a moment more."""
    page.wait_for_function(
        "(labels) => JSON.stringify(queue.sent) === JSON.stringify(labels)", arg=list(labels)
    )
    page.wait_for_timeout(150)
    assert page.evaluate("queue.sent") == list(labels)


def settled(page: Page, label: str) -> Any:
    """Wait until the write's tap heard how it went; return that."""
    page.wait_for_function("(label) => label in queue.settled", arg=label)
    return page.evaluate("(label) => queue.settled[label]", label)


def test_a_write_waits_while_an_earlier_one_of_its_session_is_unanswered(modules: Modules) -> None:
    page = queue(modules)
    for label in ("Bob's set", "Ann's sequence", "Ann's set"):
        modules.run(WRITE, ["s1", label])
    sent(page, "Bob's set")
    modules.run(ANSWER, ["Bob's set", {"said": "Bob: 18"}])
    sent(page, "Bob's set", "Ann's sequence")
    assert settled(page, "Bob's set") == 'answered {"said":"Bob: 18"}'
    modules.run(ANSWER, ["Ann's sequence", {}])
    sent(page, "Bob's set", "Ann's sequence", "Ann's set")
    modules.run(ANSWER, ["Ann's set", {}])
    settled(page, "Ann's set")
    assert modules.run(LIST, "s1") == []


def test_the_writes_of_another_session_do_not_wait(modules: Modules) -> None:
    page = queue(modules)
    modules.run(WRITE, ["s1", "table one"])
    modules.run(WRITE, ["s2", "table two"])
    sent(page, "table one", "table two")


def test_a_refusal_stops_the_queue_until_the_recorder_drops_it(modules: Modules) -> None:
    page = queue(modules)
    refused = modules.run(WRITE, ["s1", "Ann's threes"])
    modules.run(WRITE, ["s1", "Bob's kings"])
    sent(page, "Ann's threes")
    modules.run(ANSWER, ["Ann's threes", "refused"])
    assert settled(page, "Ann's threes") == "refused"
    assert settled(page, "Bob's kings") == "waits"
    sent(page, "Ann's threes")
    assert modules.run(LIST, "s1") == [
        ["Ann's threes", "3♦ is on the table."],
        ["Bob's kings", None],
    ]
    # Flushed again, it stays: nothing goes past a refusal.
    modules.run(FLUSH)
    sent(page, "Ann's threes")
    modules.run("(id) => queue.outbox.remove(id)", refused)
    modules.run(FLUSH)
    sent(page, "Ann's threes", "Bob's kings")


def test_a_write_without_an_answer_waits_with_those_after_it_and_goes_again_first(
    modules: Modules,
) -> None:
    page = queue(modules)
    modules.run(WRITE, ["s1", "Bob's set"])
    modules.run(WRITE, ["s1", "Ann's sequence"])
    sent(page, "Bob's set")
    modules.run(ANSWER, ["Bob's set", "no answer"])
    assert settled(page, "Bob's set") == "waits"
    assert settled(page, "Ann's sequence") == "waits"
    assert modules.run(LIST, "s1") == [["Bob's set", None], ["Ann's sequence", None]]
    modules.run(FLUSH)
    sent(page, "Bob's set", "Bob's set")
    modules.run(ANSWER, ["Bob's set", {}])
    sent(page, "Bob's set", "Bob's set", "Ann's sequence")


def test_an_undo_behind_a_write_being_sent_names_the_entry_the_server_recorded(
    modules: Modules,
) -> None:
    page = queue(modules)
    meld = modules.run(WRITE, ["s1", "Bob's set"])
    modules.run(WRITE, ["s1", "Undo", {"after": meld, "url": "/games/1/undo"}])
    sent(page, "Bob's set")
    modules.run(ANSWER, ["Bob's set", {"entry": 41}])
    sent(page, "Bob's set", "Undo")
    assert page.evaluate("queue.urls[1]") == "/games/1/undo?entry=41"


def test_an_undo_goes_with_the_write_it_undoes_when_that_is_dropped(modules: Modules) -> None:
    page = queue(modules)
    meld = modules.run(WRITE, ["s1", "Bob's set"])
    modules.run(WRITE, ["s1", "Undo", {"after": meld, "url": "/games/1/undo"}])
    sent(page, "Bob's set")
    modules.run(ANSWER, ["Bob's set", "refused"])
    settled(page, "Bob's set")
    modules.run("(id) => queue.outbox.remove(id)", meld)
    assert modules.run(LIST, "s1") == []


@pytest.mark.parametrize("locks", ["Web Locks", "no Web Locks"])
def test_a_second_tab_sends_nothing_while_the_first_tabs_write_is_unanswered(
    modules: Modules, locks: str
) -> None:
    if locks == "no Web Locks":  # a page over plain http on a LAN: a lease in the outbox
        modules.context.add_init_script(NO_WEB_LOCKS)
        modules.page.reload()
    first = queue(modules)
    modules.run(WRITE, ["s1", "Bob's set"], page=first)
    sent(first, "Bob's set")
    second = queue(modules, modules.tab())
    modules.run(WRITE, ["s1", "Ann's sequence"], page=second)
    second.wait_for_timeout(1_200)
    assert second.evaluate("queue.sent") == []
    assert first.evaluate("queue.sent") == ["Bob's set"]
    modules.run(ANSWER, ["Bob's set", {}], page=first)
    # Whichever tab sends it next, it goes after Bob's, once.
    first.wait_for_function(
        "() => queue.sent.length === 2", timeout=5_000
    ) if locks == "Web Locks" else None
    both = first.evaluate("queue.sent") + second.evaluate("queue.sent")
    for _ in range(50):
        if len(both) == 2:
            break
        first.wait_for_timeout(100)
        both = first.evaluate("queue.sent") + second.evaluate("queue.sent")
    assert both == ["Bob's set", "Ann's sequence"]


def test_a_write_that_reaches_the_server_after_a_later_tap_is_told(modules: Modules) -> None:
    page = queue(modules)
    modules.run(WRITE, ["s1", "Ann's sequence", {"tapped": 2000}])
    sent(page, "Ann's sequence")
    modules.run(ANSWER, ["Ann's sequence", {}])
    settled(page, "Ann's sequence")
    assert page.evaluate("queue.late") == []
    modules.run(WRITE, ["s1", "Bob's set", {"tapped": 1000}])
    sent(page, "Ann's sequence", "Bob's set")
    modules.run(ANSWER, ["Bob's set", {}])
    settled(page, "Bob's set")
    assert page.evaluate("queue.late") == ["Bob's set"]


ANSWERED = """async ([status, type, body, headers]) => {
    const { sendForm } = await import("/js/send.js");
    const answers = Object.assign({ "Content-Type": type }, headers);
    window.fetch = async () => new Response(body, { status, headers: answers });
    try {
        const entry = { url: "/x", fields: [], idempotencyKey: "k" };
        const answer = await sendForm(entry, "token", false);
        return [answer.ok, answer.reason || null];
    } catch (error) { return ["again later", null]; }
}"""


@pytest.mark.parametrize(
    ("status", "kind", "body", "headers", "meaning"),
    [
        (200, "application/json", '{"said": "Ann: 30"}', {}, [True, None]),
        (
            200,
            "application/json",
            '{"refused": true, "error": "<b>3♦</b> is on the table."}',
            {},
            [False, "3♦ is on the table."],
        ),
        (
            409,
            "application/json",
            '{"error": "The game is over."}',
            {},
            [False, "The game is over."],
        ),
        (
            422,
            "text/html",
            '<main><p role="alert">Not a meld.</p></main>',
            {},
            [False, "Not a meld."],
        ),
        (
            409,
            "application/json",
            '{"error": "still saving"}',
            {"Retry-After": "1"},
            ["again later", None],
        ),
        (503, "text/html", "busy", {}, ["again later", None]),
        (429, "text/html", "slow down", {}, ["again later", None]),
    ],
)
def test_what_the_server_answers_is_a_refusal_or_a_send_again(
    modules: Modules, status: int, kind: str, body: str, headers: dict[str, str], meaning: list[Any]
) -> None:
    assert modules.run(ANSWERED, [status, kind, body, headers]) == meaning
