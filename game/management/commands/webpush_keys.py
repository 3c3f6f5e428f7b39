"""``python manage.py webpush_keys``: print a new VAPID key pair for Web Push as settings.

Prints ``WEBPUSH_VAPID_PUBLIC_KEY=...`` (base64url of the uncompressed P-256 point, what browsers
subscribe with) and ``WEBPUSH_VAPID_PRIVATE_KEY=...`` (base64url of the private number), ready for
the environment (``game/site/webpush.py``). Keep the private key secret; changing the pair makes
every stored subscription useless (browsers must subscribe again).
"""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def new_pair() -> tuple[str, str]:
    """``(public, private)`` VAPID keys, base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64url(public), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


class Command(BaseCommand):
    help = "Print a new VAPID key pair for Web Push, as environment settings."

    def handle(self, *args, **options):
        public, private = new_pair()
        self.stdout.write(f"WEBPUSH_VAPID_PUBLIC_KEY={public}\nWEBPUSH_VAPID_PRIVATE_KEY={private}")
