"""Read the forms of a page as a browser would send them, for tests that post what a page shows."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from html import unescape
from html.parser import HTMLParser


@dataclass
class PageForm:
    """One ``<form>``: where it posts and the fields a browser would send untouched."""

    action: str
    fields: dict[str, str] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)  # radio name -> values offered
    button_actions: list[str] = field(default_factory=list)  # buttons that post elsewhere

    def through_button(self, action_part: str) -> PageForm:
        """Return this form as sent by its button whose ``formaction`` contains ``action_part``."""
        found = [action for action in self.button_actions if action_part in action]
        assert found, f"no button of the form posts to {action_part!r}"
        return replace(self, action=found[0])


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[PageForm] = []
        self._open: PageForm | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: unescape(value or "") for name, value in attrs}
        if tag == "form":
            self._open = PageForm(attr.get("action", ""))
            self.forms.append(self._open)
        elif tag == "input" and self._open is not None and "name" in attr:
            name, value = attr["name"], attr.get("value", "")
            if attr.get("type") == "radio":
                self._open.choices.setdefault(name, []).append(value)
                if "checked" in attr:
                    self._open.fields[name] = value
            elif attr.get("type") not in ("checkbox", "submit", "button"):
                self._open.fields[name] = value
        elif tag == "button" and self._open is not None and attr.get("formaction"):
            self._open.button_actions.append(attr["formaction"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def forms_on(page: str) -> list[PageForm]:
    """Return every form of a page, in page order."""
    reader = _Reader()
    reader.feed(page)
    return reader.forms


def form_to(page: str, action_part: str, index: int = 0) -> PageForm:
    """Return the page's form whose action contains ``action_part`` (the index-th such form)."""
    found = [form for form in forms_on(page) if action_part in form.action]
    assert len(found) > index, f"no form posting to {action_part!r} on the page"
    return found[index]
