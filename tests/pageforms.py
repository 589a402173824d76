"""Read the forms and links of a page as a browser would, for tests that post what a page shows."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from html.parser import HTMLParser

from flask.testing import FlaskClient


@dataclass
class PageForm:
    """One ``<form>``: where it posts and the fields a browser would send untouched."""

    action: str
    fields: dict[str, str] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)  # radio name -> values offered
    button_actions: list[str] = field(default_factory=list)  # buttons that post elsewhere

    def through_button(self, action_end: str) -> PageForm:
        """Return this form as sent by its button whose ``formaction`` ends with ``action_end``."""
        found = [action for action in self.button_actions if action.endswith(action_end)]
        assert found, f"no button of the form posts to …{action_end}"
        return replace(self, action=found[0])


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[PageForm] = []
        self._open: PageForm | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attr = {name: value or "" for name, value in attrs}  # the parser unescaped them
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


def form_to(page: str, action_end: str) -> PageForm:
    """Return the page's first form whose address (before any ``?``) ends with ``action_end``."""
    found = [form for form in forms_on(page) if form.action.split("?")[0].endswith(action_end)]
    assert found, f"no form posting to …{action_end} on the page"
    return found[0]


def start_in_browser(client: FlaskClient) -> str:
    """Start a session through the start page; return the session page's address."""
    answer = client.post(
        "/sessions",
        data={"names-0": "Ann", "names-1": "Bob", "names-2": "Cid", "target": "500"},
    )
    assert answer.status_code == 302
    return answer.headers["Location"]


def links(page: str) -> dict[str, str]:
    """Return the share links a session page offers, by kind ("edit", "view")."""
    found = re.findall(r'<a class="share-link" href="([^"]+)"', page)
    kinds = ["view", "edit"] if len(found) == 2 else ["view"]
    return dict(zip(kinds, [link.replace("&amp;", "&") for link in found], strict=True))
