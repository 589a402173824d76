"""The answer models' base: each JSON answer described once, as a model that builds it.

The API's answers (``api.answers``) and the check of cards the pages share with it
(``http.checks``) are such models: a constructor makes the answer from what a use case or the
rules returned, and ``sent()`` gives its JSON. A field the answer leaves out where it does not
apply (``absent``) is not required, is never null when sent, and is sent only where the
constructor sets it; a field that may be null says so in its type.

The constructors build the models without validating them again (``made``): every value comes
from the rules and the store, in the types the fields declare.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field


def absent(description: str | None = None, **extra: Any) -> Any:
    """Declare a field that may be left out, but is not null when it is sent."""
    return Field(None, description=description, json_schema_extra=_without_default(extra))


def _without_default(extra: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    """Return an editor of a field's schema: no default (it is left out), what ``extra`` says."""

    def edit(schema: dict[str, Any]) -> None:
        schema.pop("default", None)
        schema.update(extra)

    return edit


class Answer(BaseModel):
    """A JSON object the API answers with."""

    model_config = ConfigDict(populate_by_name=True)

    @classmethod
    def made(cls, **fields: Any) -> Self:
        """Return the answer of fields the server made, not checked again; unset ones stay out.

        What ``model_construct`` does for these models, in a third less time (an answer of a
        session of 100 games holds 100 models): every field left out has the default None
        (``absent``), and no answer has extra or private attributes. The JSON keeps the order
        the fields are given in.
        """
        answer = cls.__new__(cls)
        given = set(fields)
        for name in _defaults(cls).keys() - given:
            fields[name] = None
        object.__setattr__(answer, "__dict__", fields)
        _set_fields_set(answer, given)
        _set_extra(answer, None)
        _set_private(answer, None)
        return answer

    def sent(self) -> dict[str, Any]:
        """Return the answer as JSON values: the fields set, by their names in the contract."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)

    def json_text(self) -> str:
        """Return the answer as JSON text, its keys in the model's order, non-ASCII escaped."""
        return self.model_dump_json(by_alias=True, exclude_unset=True, ensure_ascii=True)

    def fields(self) -> dict[str, Any]:
        """Return the fields set, as they are (models stay models), to make another answer."""
        given = self.model_fields_set
        return {name: value for name, value in self.__dict__.items() if name in given}


# How a model is made without validation: its values, the fields set, no extra, no private.
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


@functools.cache
def _defaults(model: type[Answer]) -> dict[str, Any]:
    """Return the defaults of a model's fields that may be left out (all None: ``absent``)."""
    found = {
        name: field.get_default(call_default_factory=True)
        for name, field in model.model_fields.items()
        if not field.is_required()
    }
    if any(value is not None for value in found.values()):
        raise TypeError(f"{model.__name__}: an answer field left out has no other default")
    return found
