"""The table's own certificate authority and the server certificate it signs for this machine.

``scorekeeper serve`` makes the authority once, in the instance folder, and a phone trusts it
once (the trust page). Its name constraints let it sign only for private addresses, ``.local``,
``localhost`` and the names the table was started with, so a phone that trusts it trusts nothing
on the internet. The server certificate names this machine's addresses and names; it lasts at
most 397 days and is made anew when they change. The authority's private key never leaves its
file (mode 0600): nothing serves or exports it.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import os
import plistlib
import shutil
import socket
import tempfile
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# The folder in the instance folder that holds the authority and the server certificate.
FOLDER = "table-ca"
CA_CERTIFICATE = "ca.crt"
CA_KEY = "ca.key"
# The server certificate and its key in one file, replaced at once when made anew.
SERVER = "server.pem"
# The networks a table may be reached on: the private IPv4 ranges, loopback, unique local IPv6.
PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "fc00::/7",
        "::1/128",
    )
)
# Names under these, and the names given when the authority is made (the machine's own name
# and those of --host and --name), are all the authority may sign for.
PRIVATE_NAMES = ("local", "localhost")
# The authority outlives many server certificates; the phones trust it once.
CA_DAYS = 10 * 365
# Browsers refuse server certificates that last longer than 398 days.
SERVER_DAYS = 397
# A server certificate this close to its end is made anew at the next start.
RENEW_DAYS = 30
# Started this long before now, so that a phone whose clock is a little behind accepts it.
BACKDATED = timedelta(hours=1)


class CertificateError(Exception):
    """The table's certificate authority cannot be read or used; the message says why."""


@dataclass(frozen=True)
class Names:
    """What a server certificate names: host names and IP addresses."""

    dns: frozenset[str]
    ips: frozenset[Address]

    @classmethod
    def of(cls, names: Iterable[str]) -> Names:
        """Sort names into IP addresses and host names (lower case, no trailing dot)."""
        dns: set[str] = set()
        ips: set[Address] = set()
        for name in names:
            try:
                ips.add(ipaddress.ip_address(name.strip("[]")))
            except ValueError:
                cleaned = name.strip().rstrip(".").lower()
                if cleaned:
                    dns.add(cleaned)
        return cls(frozenset(dns), frozenset(ips))

    def __or__(self, other: Names) -> Names:
        return Names(self.dns | other.dns, self.ips | other.ips)

    def said(self) -> list[str]:
        """Return the names and addresses, sorted, as they are written."""
        return sorted(self.dns) + [str(ip) for ip in sorted(self.ips, key=_address_order)]


def _address_order(address: Address) -> tuple[int, int]:
    return address.version, int(address)


def host_name() -> str:
    """Return this machine's own name, its first label, in lower case."""
    return socket.gethostname().split(".")[0].lower()


def lan_addresses() -> set[Address]:
    """Return this machine's private addresses on the local network (without loopback)."""
    found: set[Address] = set()
    # Connecting a UDP socket sends nothing; it only picks the interface of the default route.
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as udp:
            udp.connect((probe, 9))
            found.add(ipaddress.ip_address(udp.getsockname()[0].split("%")[0]))
    with contextlib.suppress(OSError):
        for *_, address in socket.getaddrinfo(socket.gethostname(), None):
            found.add(ipaddress.ip_address(str(address[0]).split("%")[0]))
    return {address for address in found if is_private(address) and not address.is_loopback}


def is_private(address: Address) -> bool:
    """Say whether an address lies in a network the authority may sign for."""
    return any(
        address in network for network in PRIVATE_NETWORKS if network.version == address.version
    )


def machine_names(given: Iterable[str] = ()) -> Names:
    """Return what this machine is reached by: loopback, its name, its LAN addresses, ``given``."""
    name = host_name()
    base = ["localhost", "127.0.0.1", "::1", *given]
    if name and name != "localhost":
        base += [name, f"{name}.local"]
    return Names.of(base) | Names(frozenset(), frozenset(lan_addresses()))


def fingerprint(certificate: x509.Certificate) -> str:
    """Return a certificate's SHA-256 fingerprint as phones show it: hex pairs and colons."""
    digest = certificate.fingerprint(hashes.SHA256()).hex().upper()
    return ":".join(digest[index : index + 2] for index in range(0, len(digest), 2))


class TableAuthority:
    """The table's certificate authority in its folder, and the server certificate it signs."""

    def __init__(self, folder: Path, certificate: x509.Certificate) -> None:
        self.folder = folder
        self.certificate = certificate

    @classmethod
    def in_folder(cls, folder: Path, names: Iterable[str] = ()) -> TableAuthority:
        """Return the authority kept in ``folder``, making it first if there is none.

        ``names`` are the host names it may sign for besides ``.local`` and ``localhost`` (the
        machine's name, those of --host and --name); they are fixed when it is made. Two
        servers starting at once agree on one authority: it is made in a folder of its own
        and put in place with one rename, which fails for the second.
        """
        if not (folder / CA_CERTIFICATE).exists():
            cls._make(folder, names)
        try:
            certificate = x509.load_pem_x509_certificate((folder / CA_CERTIFICATE).read_bytes())
        except (OSError, ValueError) as error:
            raise CertificateError(
                f"the table's certificate authority in {folder} cannot be read ({error}); "
                f"move the folder away to make a new one (phones must trust it again)"
            ) from None
        return cls(folder, certificate)

    @staticmethod
    def _make(folder: Path, names: Iterable[str]) -> None:
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        made = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        try:
            key = ec.generate_private_key(ec.SECP256R1())
            certificate = _authority_certificate(key, Names.of(names).dns)
            _write_private(made / CA_KEY, _key_pem(key))
            (made / CA_CERTIFICATE).write_bytes(
                certificate.public_bytes(serialization.Encoding.PEM)
            )
            made.chmod(0o700)
            try:
                made.rename(folder)
            except OSError:
                if (folder / CA_CERTIFICATE).exists():
                    return  # another server made it first
                # What is left of an authority without its certificate is kept aside, unused.
                folder.rename(
                    folder.with_name(f"{folder.name}-old-{datetime.now(UTC):%Y%m%d%H%M%S}")
                )
                made.rename(folder)
        finally:
            shutil.rmtree(made, ignore_errors=True)

    # --- what it may sign for -----------------------------------------------------------------

    def constraints(self) -> x509.NameConstraints:
        """Return the authority's name constraints."""
        return self.certificate.extensions.get_extension_for_class(x509.NameConstraints).value

    def permits(self, name: str | Address) -> bool:
        """Say whether the authority may sign for a host name or an IP address."""
        permitted = self.constraints().permitted_subtrees or []
        if isinstance(name, str):
            with contextlib.suppress(ValueError):
                name = ipaddress.ip_address(name)
        if isinstance(name, ipaddress.IPv4Address | ipaddress.IPv6Address):
            return any(
                isinstance(tree, x509.IPAddress)
                and isinstance(tree.value, ipaddress.IPv4Network | ipaddress.IPv6Network)
                and name.version == tree.value.version
                and name in tree.value
                for tree in permitted
            )
        name = name.rstrip(".").lower()
        return any(
            isinstance(tree, x509.DNSName)
            and (name == tree.value or name.endswith("." + tree.value))
            for tree in permitted
        )

    def permitted(self, names: Names) -> Names:
        """Return the names the authority may sign for, of those given."""
        return Names(
            frozenset(name for name in names.dns if self.permits(name)),
            frozenset(ip for ip in names.ips if self.permits(ip)),
        )

    # --- the server certificate ----------------------------------------------------------------

    @property
    def server_file(self) -> Path:
        """Return the file of the server certificate and its key (PEM, mode 0600)."""
        return self.folder / SERVER

    def server_certificate(self) -> x509.Certificate | None:
        """Return the server certificate kept in the folder, if any."""
        try:
            return x509.load_pem_x509_certificate(self.server_file.read_bytes())
        except (OSError, ValueError):
            return None

    def server_for(self, names: Names, now: datetime | None = None) -> Path:
        """Return the server certificate's file, made anew if it does not name ``names`` exactly.

        It is also made anew when it ends within RENEW_DAYS or another authority signed it.
        Names the authority may not sign for are left out: a phone refuses a certificate that
        names even one of them.
        """
        names = self.permitted(names)
        now = now or datetime.now(UTC)
        kept = self.server_certificate()
        if kept is None or not self._still_fits(kept, names, now):
            self._write_server(self.issue(names, now))
        return self.server_file

    def _still_fits(self, kept: x509.Certificate, names: Names, now: datetime) -> bool:
        if kept.issuer != self.certificate.subject or named(kept) != names:
            return False
        try:
            kept.verify_directly_issued_by(self.certificate)
        except (ValueError, TypeError, InvalidSignature):
            return False
        return kept.not_valid_after_utc - now > timedelta(days=RENEW_DAYS)

    def issue(self, names: Names, now: datetime | None = None) -> tuple[bytes, bytes]:
        """Sign a new server certificate for ``names``; return it and its key, both PEM."""
        if not names.dns and not names.ips:
            raise CertificateError("a server certificate needs at least one name")
        key = ec.generate_private_key(ec.SECP256R1())
        start = (now or datetime.now(UTC)) - BACKDATED
        authority_key = self._key()
        alternative: list[x509.GeneralName] = [x509.DNSName(name) for name in sorted(names.dns)]
        alternative += [x509.IPAddress(ip) for ip in sorted(names.ips, key=_address_order)]
        common = sorted(names.dns)[0] if names.dns else str(min(names.ips, key=_address_order))
        certificate = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)]))
            .issuer_name(self.certificate.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start)
            .not_valid_after(start + timedelta(days=SERVER_DAYS))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(_usage(signs_certificates=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False
            )
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(authority_key.public_key()),
                critical=False,
            )
            .sign(authority_key, hashes.SHA256())
        )
        return certificate.public_bytes(serialization.Encoding.PEM), _key_pem(key)

    def _write_server(self, issued: tuple[bytes, bytes]) -> None:
        # One file, replaced at once: a server starting meanwhile never reads a key of another.
        handle, temporary = tempfile.mkstemp(prefix=".server-", dir=self.folder)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(issued[0] + issued[1])
            Path(temporary).chmod(0o600)
            os.replace(temporary, self.server_file)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise

    def _key(self) -> ec.EllipticCurvePrivateKey:
        try:
            key = serialization.load_pem_private_key((self.folder / CA_KEY).read_bytes(), None)
        except (OSError, ValueError) as error:
            raise CertificateError(
                f"the key of the table's certificate authority in {self.folder} cannot be read "
                f"({error})"
            ) from None
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise CertificateError(f"{self.folder / CA_KEY} is not the authority's key")
        return key

    # --- what a phone downloads ------------------------------------------------------------------

    def der(self) -> bytes:
        """Return the authority's certificate as DER, the file Android installs."""
        return self.certificate.public_bytes(serialization.Encoding.DER)

    def fingerprint(self) -> str:
        """Return the authority's SHA-256 fingerprint, as phones show it."""
        return fingerprint(self.certificate)

    def profile(self, name: str) -> bytes:
        """Return a configuration profile that installs the authority on an iPhone or iPad."""
        digest = hashlib.sha256(self.der()).hexdigest()
        # The same authority always gives the same profile: installing it again replaces it.
        identifier = f"scorekeeper.table-ca.{digest[:16]}"
        root = {
            "PayloadType": "com.apple.security.root",
            "PayloadVersion": 1,
            "PayloadIdentifier": f"{identifier}.certificate",
            "PayloadUUID": str(uuid.uuid5(uuid.NAMESPACE_OID, digest + ".certificate")).upper(),
            "PayloadDisplayName": name,
            "PayloadCertificateFileName": "table-ca.crt",
            "PayloadContent": self.der(),
        }
        profile = {
            "PayloadType": "Configuration",
            "PayloadVersion": 1,
            "PayloadIdentifier": identifier,
            "PayloadUUID": str(uuid.uuid5(uuid.NAMESPACE_OID, digest)).upper(),
            "PayloadDisplayName": name,
            "PayloadDescription": name,
            "PayloadRemovalDisallowed": False,
            "PayloadContent": [root],
        }
        return plistlib.dumps(profile, fmt=plistlib.FMT_XML)


def certificate_in(path: Path) -> x509.Certificate:
    """Return the first certificate of a PEM file."""
    try:
        return x509.load_pem_x509_certificate(path.read_bytes())
    except (OSError, ValueError) as error:
        raise CertificateError(f"{path} holds no certificate that can be read ({error})") from None


def named(certificate: x509.Certificate) -> Names:
    """Return the names and addresses a certificate names (its subject alternative names)."""
    try:
        alternative = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return Names(frozenset(), frozenset())
    ips = [ip for ip in alternative.value.get_values_for_type(x509.IPAddress)]
    dns = alternative.value.get_values_for_type(x509.DNSName)
    return Names(
        frozenset(name.lower() for name in dns),
        frozenset(
            ip for ip in ips if isinstance(ip, ipaddress.IPv4Address | ipaddress.IPv6Address)
        ),
    )


def _authority_certificate(
    key: ec.EllipticCurvePrivateKey, names: frozenset[str]
) -> x509.Certificate:
    machine = host_name() or "table"
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Rummy scorekeeper"),
            x509.NameAttribute(
                NameOID.COMMON_NAME,
                f"Rummy scorekeeper table {machine} {datetime.now(UTC):%Y-%m-%d}",
            ),
        ]
    )
    dns = sorted(set(PRIVATE_NAMES) | {name for name in names if not _under_private(name)})
    permitted: list[x509.GeneralName] = [x509.DNSName(name) for name in dns]
    permitted += [x509.IPAddress(network) for network in PRIVATE_NETWORKS]
    now = datetime.now(UTC) - BACKDATED
    public = key.public_key()
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + timedelta(days=CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_usage(signs_certificates=True), critical=True)
        .add_extension(
            x509.NameConstraints(permitted_subtrees=permitted, excluded_subtrees=None),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )


def _under_private(name: str) -> bool:
    return any(name == private or name.endswith("." + private) for private in PRIVATE_NAMES)


def _usage(*, signs_certificates: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=not signs_certificates,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=signs_certificates,
        crl_sign=signs_certificates,
        encipher_only=False,
        decipher_only=False,
    )


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def _write_private(path: Path, data: bytes) -> None:
    """Write a file that only its owner may read, from its first byte on."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "wb") as file:
        file.write(data)
    path.chmod(0o600)
