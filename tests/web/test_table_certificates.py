"""The table's certificate authority and server certificate, read back as a phone reads them."""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import plistlib
import socket
import ssl
import stat
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.x509.oid import ExtendedKeyUsageOID

from scorekeeper import certificates
from scorekeeper.certificates import Names, TableAuthority, named

PRIVATE = {"10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "127.0.0.0/8", "fc00::/7", "::1/128"}


def server_certificate(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificate(path.read_bytes())


def test_the_authority_may_sign_only_for_private_addresses_local_names_and_the_names_given(
    tmp_path: Path,
) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm", "tisch.fritz.box", "10.1.2.3"])
    extension = authority.certificate.extensions.get_extension_for_class(x509.NameConstraints)
    assert extension.critical
    permitted = extension.value.permitted_subtrees or []
    assert extension.value.excluded_subtrees is None
    dns = {tree.value for tree in permitted if isinstance(tree, x509.DNSName)}
    networks = {str(tree.value) for tree in permitted if isinstance(tree, x509.IPAddress)}
    assert dns == {"local", "localhost", "vm", "tisch.fritz.box"}
    assert networks == PRIVATE
    basic = authority.certificate.extensions.get_extension_for_class(x509.BasicConstraints)
    assert basic.critical and basic.value.ca and basic.value.path_length == 0
    assert authority.permits("tisch.local") and authority.permits("localhost")
    assert authority.permits(ipaddress.ip_address("192.168.1.20"))
    assert not authority.permits("example.com")
    assert not authority.permits("notlocal")
    assert not authority.permits(ipaddress.ip_address("8.8.8.8"))
    assert not authority.permits(ipaddress.ip_address("2001:db8::1"))


def test_the_authoritys_key_is_readable_by_its_owner_only_and_stays_at_the_next_start(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "ca"
    first = TableAuthority.in_folder(folder, ["vm"])
    assert stat.S_IMODE((folder / certificates.CA_KEY).stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    first.server_for(Names.of(["localhost"]))
    assert stat.S_IMODE(first.server_file.stat().st_mode) == 0o600
    again = TableAuthority.in_folder(folder, ["another-name"])
    assert again.certificate == first.certificate
    assert again.fingerprint() == first.fingerprint()


def test_two_servers_starting_at_once_agree_on_one_authority(tmp_path: Path) -> None:
    folder = tmp_path / "ca"
    made: list[str] = []

    def start() -> None:
        made.append(TableAuthority.in_folder(folder, ["vm"]).fingerprint())

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(made)) == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["ca"]


def test_the_server_certificate_names_the_machine_and_lasts_at_most_397_days(
    tmp_path: Path,
) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    wanted = Names.of(["localhost", "vm", "vm.local", "127.0.0.1", "::1", "192.168.1.20"])
    issued = server_certificate(authority.server_for(wanted))
    assert named(issued) == wanted
    lifetime = issued.not_valid_after_utc - issued.not_valid_before_utc
    assert lifetime <= timedelta(days=397)
    assert issued.not_valid_before_utc < datetime.now(UTC)
    issued.verify_directly_issued_by(authority.certificate)
    usage = issued.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value
    assert list(usage) == [ExtendedKeyUsageOID.SERVER_AUTH]
    assert not issued.extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def test_names_the_authority_may_not_sign_for_are_left_out_of_the_server_certificate(
    tmp_path: Path,
) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    wanted = Names.of(["localhost", "scores.example", "203.0.113.7", "192.168.1.20"])
    issued = server_certificate(authority.server_for(wanted))
    assert named(issued) == Names.of(["localhost", "192.168.1.20"])


def test_the_server_certificate_is_made_anew_when_the_addresses_change_and_the_authority_stays(
    tmp_path: Path,
) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    at_home = Names.of(["localhost", "192.168.1.20"])
    first = server_certificate(authority.server_for(at_home))
    assert server_certificate(authority.server_for(at_home)) == first
    moved = Names.of(["localhost", "10.0.0.5"])
    second = server_certificate(authority.server_for(moved))
    assert second != first
    assert named(second) == moved
    second.verify_directly_issued_by(TableAuthority.in_folder(tmp_path / "ca").certificate)


def test_a_server_certificate_near_its_end_is_made_anew(tmp_path: Path) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    names = Names.of(["localhost"])
    first = server_certificate(authority.server_for(names))
    later = datetime.now(UTC) + timedelta(days=397 - certificates.RENEW_DAYS + 1)
    renewed = server_certificate(authority.server_for(names, now=later))
    assert renewed.serial_number != first.serial_number
    assert renewed.not_valid_after_utc > first.not_valid_after_utc


def test_a_new_authority_makes_the_server_certificate_anew(tmp_path: Path) -> None:
    names = Names.of(["localhost"])
    old = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    old.server_for(names)
    (tmp_path / "ca" / certificates.CA_CERTIFICATE).unlink()
    (tmp_path / "ca" / certificates.CA_KEY).unlink()
    new = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    assert new.fingerprint() != old.fingerprint()
    server_certificate(new.server_for(names)).verify_directly_issued_by(new.certificate)


def test_the_downloads_hold_the_authority_as_android_and_an_iphone_install_it(
    tmp_path: Path,
) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    assert x509.load_der_x509_certificate(authority.der()) == authority.certificate
    profile = plistlib.loads(authority.profile("The table"))
    assert profile["PayloadType"] == "Configuration"
    (root,) = profile["PayloadContent"]
    assert root["PayloadType"] == "com.apple.security.root"
    assert root["PayloadContent"] == authority.der()
    assert plistlib.loads(authority.profile("The table")) == profile  # the same each time
    assert "PRIVATE KEY" not in authority.profile("x").decode()


def test_the_fingerprint_is_the_sha256_of_the_certificate_in_pairs(tmp_path: Path) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    pairs = authority.fingerprint().split(":")
    assert len(pairs) == 32 and all(len(pair) == 2 for pair in pairs)
    assert "".join(pairs).lower() == hashlib.sha256(authority.der()).hexdigest()


def test_the_machine_is_named_by_loopback_its_name_and_its_private_addresses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(certificates, "host_name", lambda: "kitchen")
    monkeypatch.setattr(
        certificates,
        "lan_addresses",
        lambda: {ipaddress.ip_address("192.168.1.20")},
    )
    names = certificates.machine_names(["tisch.fritz.box"])
    assert names == Names.of(
        [
            "localhost",
            "127.0.0.1",
            "::1",
            "kitchen",
            "kitchen.local",
            "192.168.1.20",
            "tisch.fritz.box",
        ]
    )


def handshake(authority: TableAuthority, names: Names, server_name: str, folder: Path) -> None:
    """Serve a certificate the authority signed for ``names``; connect as a phone that trusts it."""
    certificate, key = authority.issue(names)
    (folder / "signed.pem").write_bytes(certificate + key)
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(folder / "signed.pem")
    phone = ssl.create_default_context(cadata=authority.der())
    ours, theirs = socket.socketpair()

    def answer() -> None:
        with contextlib.suppress(ssl.SSLError, OSError):
            server.wrap_socket(ours, server_side=True).close()

    thread = threading.Thread(target=answer)
    thread.start()
    try:
        phone.wrap_socket(theirs, server_hostname=server_name).close()
    finally:
        theirs.close()
        thread.join(10)
        ours.close()


@pytest.mark.parametrize("name", ["bank.example", "203.0.113.7"])
def test_a_phone_that_trusts_the_authority_refuses_what_it_signed_for_the_internet(
    tmp_path: Path, name: str
) -> None:
    authority = TableAuthority.in_folder(tmp_path / "ca", ["vm"])
    # Signed without the server's own check, as a stolen key would sign it.
    with pytest.raises(ssl.SSLCertVerificationError):
        handshake(authority, Names.of([name]), name, tmp_path)
    handshake(authority, Names.of(["tisch.local"]), "tisch.local", tmp_path)  # within: accepted
