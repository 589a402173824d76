"""Compressed answers and fingerprinted static files that browsers may keep for a year."""

from __future__ import annotations

import gzip
import re

from flask.testing import FlaskClient


def test_pages_link_static_files_with_a_fingerprint_that_may_be_cached_for_a_year(
    client: FlaskClient,
) -> None:
    page = client.get("/").get_data(as_text=True)
    links = re.findall(r'(?:href|src)="(/static/[^"]+\?v=[0-9a-f]{12})"', page)
    assert any(".css" in link for link in links)
    for link in links:
        with client.get(link) as answer:
            assert answer.status_code == 200
            assert answer.cache_control.max_age == 365 * 24 * 60 * 60
            assert answer.cache_control.immutable
            # No "no-cache" beside them: that would make the browser ask every time.
            said = {part.strip() for part in answer.headers["Cache-Control"].split(",")}
            assert said == {"public", "max-age=31536000", "immutable"}
            etag = answer.headers["ETag"]
        with client.get(link, headers={"If-None-Match": etag}) as again:
            assert again.status_code == 304
            said = {part.strip() for part in again.headers["Cache-Control"].split(",")}
            assert said == {"public", "max-age=31536000", "immutable"}


def test_a_static_file_without_a_fingerprint_is_not_cached_for_long(client: FlaskClient) -> None:
    with client.get("/static/app.css") as answer:
        assert answer.status_code == 200
        assert not answer.cache_control.immutable


def test_pages_and_json_are_sent_compressed_to_browsers_that_accept_it(client: FlaskClient) -> None:
    def same_but_for_the_form_token(page: bytes) -> bytes:
        return re.sub(rb'name="once" type="hidden" value="[^"]*"', b"", page)

    plain = client.get("/").get_data()
    squeezed = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert squeezed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in squeezed.headers["Vary"]
    unpacked = gzip.decompress(squeezed.get_data())
    assert same_but_for_the_form_token(unpacked) == same_but_for_the_form_token(plain)
    assert len(squeezed.get_data()) < len(plain)

    document = client.get("/api/v1/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert document.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(document.get_data()).startswith(b"{")


def test_the_installed_app_is_named_for_rummy_not_for_one_rule_system(
    client: FlaskClient,
) -> None:
    answer = client.get("/static/manifest.webmanifest")
    manifest = answer.get_json(force=True)
    answer.close()
    assert manifest["name"] == "Rummy scorekeeper"
    said = " ".join([manifest["name"], manifest["short_name"], manifest["description"]])
    assert "Treppenromm" not in said
