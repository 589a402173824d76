"""What the request models cost a request: a meld's and a finish's body read and validated.

Run from the project folder: ``.venv/bin/python bench/request_models.py`` (``--repeats N``).
In one request context per body, it times what ``api.views.takes`` does before the view runs:
the body parsed once (``api.body``) and validated by the view's model through spectree's
plugin; the median of many repeats, in microseconds. The whole requests are timed by
``bench/profile_write.py``; ``docs/performance.md`` has both, before and after the models.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from flask import g

from scorekeeper import create_app
from scorekeeper.api import models, views

BODIES: dict[str, tuple[type[models.Body], dict[str, Any]]] = {
    "meld": (models.NewMeld, {"player": 12, "cards": "9♦ 10♦ J♦ Q♦"}),
    "finish": (
        models.Settlement,
        {"winner": 12, "hands": {"13": "A♠ 7♥ K♣", "14": "2♣ 3♦"}, "romme": False},
    ),
}


def layer(
    model: type[models.Body], body: dict[str, Any], repeats: int, *, validate: bool = True
) -> list[float]:
    """Time reading (and validating) one body, ``repeats`` times, in seconds each.

    Without ``validate`` only the parse that every body had before the models is timed.
    """
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    data = json.dumps(body).encode()
    timings = []
    with app.test_request_context("/api/v1/x", method="POST", data=data, json=None) as context:
        context.request.environ["CONTENT_TYPE"] = "application/json"
        for _ in range(repeats):
            g.pop("json_body", None)  # each request parses its body anew
            started = time.perf_counter()
            views._body()
            if validate:
                backend: Any = views.spec.backend
                backend.request_validation(context.request, None, model, None, None, None)
            timings.append(time.perf_counter() - started)
    return timings


def main() -> None:
    """Print the median microseconds of the models' layer for a meld's and a finish's body."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=20000)
    args = parser.parse_args()
    print(f"medians of {args.repeats} repeats, µs: the body parsed / parsed and validated")
    for kind, (model, body) in BODIES.items():
        layer(model, body, 1000)  # warm up
        parsed = statistics.median(layer(model, body, args.repeats, validate=False)) * 1e6
        validated = statistics.median(layer(model, body, args.repeats)) * 1e6
        print(f"{kind:<8} {parsed:8.1f} {validated:8.1f}")


if __name__ == "__main__":
    main()
