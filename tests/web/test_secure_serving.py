"""``scorekeeper serve`` over HTTPS: the table's certificate, plain HTTP beside it, the trust port.

Each test starts the server as an operator would and talks to it as a phone would: a phone that
trusts the table (its authority downloaded from the trust page) and one that does not.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.live import Served, serve_with


def ask(
    port: int, path: str, context: ssl.SSLContext | None = None, name: str = "127.0.0.1"
) -> tuple[int, dict[str, str], bytes]:
    """Send a GET over HTTPS (with a context) or plain HTTP; return status, headers and body."""
    if context is None:
        connection: http.client.HTTPConnection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=10
        )
    else:
        connection = http.client.HTTPSConnection(name, port, timeout=10, context=context)
        # The name is the phone's; the address is this machine's loopback.
        connection.sock = context.wrap_socket(
            socket.create_connection(("127.0.0.1", port), timeout=10), server_hostname=name
        )
    try:
        connection.request("GET", path, headers={"Host": f"{name}:{port}"})
        response = connection.getresponse()
        return response.status, dict(response.headers), response.read()
    finally:
        connection.close()


def trusting(der: bytes) -> ssl.SSLContext:
    """Return a client context that trusts one authority, as a phone that installed it."""
    context = ssl.create_default_context(cadata=der)
    return context


def until_listening(port: int) -> None:
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.fixture
def served(tmp_path: Path) -> Served:
    server = serve_with(tmp_path)
    until_listening(server.trust_port)
    yield server  # type: ignore[misc]
    server.stop()


def test_the_port_speaks_https_with_the_tables_certificate_and_plain_http_beside_it(
    served: Served,
) -> None:
    status, headers, der = ask(served.trust_port, "/trust/scorekeeper-table.crt")
    assert status == 200 and headers["Content-Type"] == "application/x-x509-ca-cert"
    phone = trusting(der)
    status, headers, _ = ask(served.port, "/", phone)
    assert status == 200
    assert "Secure" in headers.get("Set-Cookie", "")
    # A name under .local that the certificate did not name yet: it gets one that does.
    assert ask(served.port, "/", phone, name="tisch.local")[0] == 200
    # A name the authority may not sign for is refused by the phone.
    with pytest.raises(ssl.SSLCertVerificationError):
        ask(served.port, "/", phone, name="scores.example")
    # A phone that does not trust the table is refused by its own TLS.
    with pytest.raises(ssl.SSLCertVerificationError):
        ask(served.port, "/", ssl.create_default_context())
    # Plain HTTP on the same port answers as before.
    status, headers, page = ask(served.port, "/")
    assert status == 200 and b"<html" in page
    assert "Secure" not in headers.get("Set-Cookie", "")


def test_the_trust_port_answers_the_trust_page_and_sends_every_other_path_there(
    served: Served,
) -> None:
    status, _, page = ask(served.trust_port, "/")
    assert status == 200
    assert b"Make this phone trust the table" in page
    assert f"https://127.0.0.1:{served.port}/".encode() in page
    status, headers, _ = ask(served.trust_port, "/sessions/anything")
    assert status == 303 and headers["Location"] == "/"
    # The trust page answers on the main port too, for the line that links it.
    assert ask(served.port, "/trust")[0] == 200


def test_the_authority_and_the_server_certificate_stay_across_a_restart(tmp_path: Path) -> None:
    first = serve_with(tmp_path)
    der = ask(first.port, "/trust/scorekeeper-table.crt")[2]
    first.stop()
    again = serve_with(tmp_path)
    try:
        assert ask(again.port, "/trust/scorekeeper-table.crt")[2] == der
        assert ask(again.port, "/", trusting(der))[0] == 200
    finally:
        again.stop()


def test_with_http_the_port_speaks_plain_http_only_and_there_is_no_trust_page(
    tmp_path: Path,
) -> None:
    server = serve_with(tmp_path, "--http")
    try:
        assert ask(server.port, "/")[0] == 200
        assert ask(server.port, "/trust")[0] == 404
        with pytest.raises((ssl.SSLError, OSError)):
            ask(server.port, "/", ssl.create_default_context())
    finally:
        stdout, _ = server.stop()
    assert f"Open http://127.0.0.1:{server.port}/ on a phone" in stdout


def own_certificate(folder: Path) -> tuple[Path, Path, bytes]:
    """Make a club's own certificate for localhost (self-signed); return its files and DER."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    (folder / "club.crt").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (folder / "club.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return (
        folder / "club.crt",
        folder / "club.key",
        certificate.public_bytes(serialization.Encoding.DER),
    )


def test_with_its_own_certificate_the_club_serves_https_with_it_and_no_trust_page(
    tmp_path: Path,
) -> None:
    certificate, key, der = own_certificate(tmp_path)
    server = serve_with(tmp_path, "--certificate", str(certificate), "--key", str(key))
    try:
        assert ask(server.port, "/", trusting(der), name="localhost")[0] == 200
        assert ask(server.port, "/trust")[0] == 404
    finally:
        stdout, _ = server.stop()
    assert f"Open https://localhost:{server.port}/" in stdout


def test_a_phone_keeps_its_connection_and_resumes_its_tls_session_when_it_comes_back(
    served: Served,
) -> None:
    phone = trusting(ask(served.trust_port, "/trust/scorekeeper-table.crt")[2])

    def connected(session: ssl.SSLSession | None = None) -> ssl.SSLSocket:
        plain = socket.create_connection(("127.0.0.1", served.port), timeout=10)
        return phone.wrap_socket(plain, server_hostname="127.0.0.1", session=session)

    first = connected()
    assert not first.session_reused
    connection = http.client.HTTPSConnection("127.0.0.1", served.port, context=phone)
    connection.sock = first
    # Three requests on the one connection: one handshake for all of them.
    for _ in range(3):
        connection.request("GET", "/api/v1/openapi.json")
        response = connection.getresponse()
        assert response.status == 200
        response.read()
    session = first.session
    connection.close()
    again = connected(session)
    try:
        assert again.session_reused
    finally:
        again.close()
