"""Take the contract of an OpenAPI document: its operations, their fields and status codes.

Run once from the project folder, against the document as it was served before the models
wrote it (from ``tests/web/data``): ``python openapi_contract.py > openapi_contract.json``.
``tests/web/test_openapi_contract.py`` compares the served document with that file through
``contract_of``: nothing taken there may go missing (additions are fine).
"""

from __future__ import annotations

import json
from typing import Any

METHODS = ("get", "post", "put", "patch", "delete")
Fields = dict[str, Any]


def contract_of(document: dict[str, Any]) -> dict[str, Any]:
    """Return each operation's parameters, request fields, status codes and answer fields.

    A field is a path of property names (``rules.opening``, ``players[]``, ``totals{}``: a map's
    values, whether ``additionalProperties`` or ``patternProperties`` say them)
    mapped to its default, or to None where it has none; ``$ref``s are followed, and the
    alternatives of ``oneOf``/``anyOf``/``allOf`` are read together.
    """
    operations: dict[str, Any] = {}
    for path, item in document["paths"].items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            parameters = [*shared, *operation.get("parameters", [])]
            body = operation.get("requestBody", {}).get("content", {})
            answers = {}
            for status, answer in operation["responses"].items():
                media = answer.get("content", {})
                answers[status] = {
                    kind: _fields(document, media[kind].get("schema", {})) for kind in sorted(media)
                }
            operations[f"{method.upper()} {path}"] = {
                "parameters": sorted(f"{p['in']}:{p['name']}" for p in parameters),
                "request": {kind: _fields(document, body[kind]["schema"]) for kind in sorted(body)},
                "responses": answers,
            }
    return operations


def _fields(document: dict[str, Any], schema: dict[str, Any]) -> Fields:
    found: Fields = {}
    _walk(document, schema, "", found, ())
    return dict(sorted(found.items()))


def _walk(
    document: dict[str, Any],
    schema: Any,
    where: str,
    found: Fields,
    seen: tuple[str, ...],
) -> None:
    if not isinstance(schema, dict):
        return
    reference = schema.get("$ref")
    if isinstance(reference, str):
        if reference in seen:
            return
        _walk(document, _resolve(document, reference), where, found, (*seen, reference))
    if where and "default" in schema:
        found[where] = schema["default"]
    for word in ("oneOf", "anyOf", "allOf"):
        for alternative in schema.get(word, []):
            _walk(document, alternative, where, found, seen)
    for name, inner in schema.get("properties", {}).items():
        field = f"{where}.{name}" if where else name
        found.setdefault(field, None)
        _walk(document, inner, field, found, seen)
    if isinstance(schema.get("items"), dict):
        _walk(document, schema["items"], f"{where}[]", found, seen)
    if isinstance(schema.get("additionalProperties"), dict):
        _walk(document, schema["additionalProperties"], f"{where}{{}}", found, seen)
    for inner in schema.get("patternProperties", {}).values():  # a map whose keys are checked
        _walk(document, inner, f"{where}{{}}", found, seen)


def _resolve(document: dict[str, Any], reference: str) -> Any:
    node: Any = document
    for part in reference.removeprefix("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


if __name__ == "__main__":
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    served = app.test_client().get("/api/v1/openapi.json").get_json()
    print(json.dumps(contract_of(served), indent=1, ensure_ascii=False, sort_keys=True))
