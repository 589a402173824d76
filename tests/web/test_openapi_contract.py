"""The served OpenAPI document keeps the whole contract it had when the models began to write it.

``data/openapi_contract.json`` holds every operation of the document as it was then, with its
parameters, request fields (and their defaults), status codes and answer fields; it was taken
once by ``data/openapi_contract.py``. Fields and operations may be added, never lost.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

DATA = Path(__file__).parent / "data"
KEPT: dict[str, Any] = json.loads((DATA / "openapi_contract.json").read_text("utf-8"))


def _contract_of(document: dict[str, Any]) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("openapi_contract", DATA / "openapi_contract.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    contract: dict[str, Any] = module.contract_of(document)
    return contract


@pytest.fixture
def served(client: FlaskClient) -> dict[str, Any]:
    """Return the contract of the document the API serves now."""
    return _contract_of(client.get("/api/v1/openapi.json").get_json())


def missing(kept: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Name each field of ``kept`` that ``now`` lacks or gives another default.

    A field that had no default may have one now.
    """
    return sorted(
        f"{field} (default {default!r})" if field in now else field
        for field, default in kept.items()
        if field not in now or (default is not None and now[field] != default)
    )


def test_every_operation_of_the_kept_contract_is_still_served(served: dict[str, Any]) -> None:
    assert sorted(set(KEPT) - set(served)) == []


@pytest.mark.parametrize("operation", sorted(KEPT))
def test_an_operation_keeps_its_parameters_fields_defaults_and_status_codes(
    served: dict[str, Any], operation: str
) -> None:
    kept, now = KEPT[operation], served[operation]
    assert sorted(set(kept["parameters"]) - set(now["parameters"])) == []
    for kind, fields in kept["request"].items():
        assert kind in now["request"], f"the request body as {kind}"
        assert missing(fields, now["request"][kind]) == [], "request fields"
    assert sorted(set(kept["responses"]) - set(now["responses"])) == [], "status codes"
    for status, answer in kept["responses"].items():
        for kind, fields in answer.items():
            assert kind in now["responses"][status], f"{status} as {kind}"
            assert missing(fields, now["responses"][status][kind]) == [], f"{status} fields"


def test_the_comparison_finds_a_lost_field_and_a_changed_default() -> None:
    kept = {"rules.opening": 40, "cards": None, "dealer": None}
    assert missing(kept, {"rules.opening": 30, "dealer": 0}) == [
        "cards",
        "rules.opening (default 40)",
    ]
