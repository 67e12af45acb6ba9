"""Writes corpus_fresh3.yaml: written on 2026-11-25 after `fresh2` was scored once (recall
0.92; its two misses, a .pgpass line and a PIN said in prose, were then read) and before
the rules changed for them, with shapes no other split holds. Scored once by the
reported benchmark run.
"""

from __future__ import annotations

import base64
import random
import string
from pathlib import Path

from corpus_file import labelled, write

R = random.Random(20261127)
AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UPPER_AN = string.ascii_uppercase + string.digits
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def s(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def uuid() -> str:
    return "-".join(s(HEX, n) for n in (8, 4, 4, 4, 12))


def password() -> str:
    return s(string.ascii_letters, 6) + s(string.digits, 3) + R.choice("!$%&*") + s(AN, 4)


SECRETS = [
    ("doppler service token {S}", "dp.st.prd." + s(AN, 40)),
    ("linear api key: {S}", "lin_api_" + s(AN, 40)),
    ("shopify admin token {S} for the acme-store", "shpat_" + s(HEX, 32)),
    ("databricks personal access token {S}", "dapi" + s(HEX, 32)),
    ("planetscale token {S}", "pscale_tkn_" + s(AN + "_", 43)),
    ("postman api key {S}", "PMAK-" + s(HEX, 24) + "-" + s(HEX, 34)),
    ("fly deploy token is {S}", "fo1_" + s(AN + "_-", 43)),
    ("grafana service account token {S}", "glsa_" + s(AN, 32) + "_" + s(HEX, 8)),
    ("new relic user key {S}", "NRAK-" + s(UPPER_AN, 27)),
    ("age key file: {S}", "AGE-SECRET-KEY-1" + s(BECH32, 58)),
    ("STRIPE_WEBHOOK_SECRET=whsec_{S}", s(AN, 32)),
    ('  environment:\n    POSTGRES_PASSWORD: "{S}"', password()),
    ("export AWS_SESSION_TOKEN={S}", "FwoGZXIvYXdzE" + s(AN + "/+", 120) + "="),
    ("DATABASE_URL=mysql://root:{S}@10.0.0.4:3306/app", password()),
    ("jdbc:postgresql://db:5432/app?user=app&password={S}", password()),
    ("mailgun key {S}", "key-" + s(HEX, 32)),
    ("the door code is 4471 and the alarm password is {S}", "Tulip!" + s(string.digits, 4)),
    (
        "my 2FA backup code is {S}",
        s(string.ascii_lowercase + string.digits, 5)
        + "-"
        + s(string.ascii_lowercase + string.digits, 5),
    ),
    (
        "teams webhook https://acme.webhook.office.com/webhookb2/{S}",
        uuid() + "@" + uuid() + "/IncomingWebhook/" + s(HEX, 32) + "/" + uuid(),
    ),
    ("HEROKU_API_KEY={S}", uuid()),
    ("kind: Secret\ndata:\n  token: {S}", base64.b64encode(s(AN, 40).encode()).decode()),
    ("Cookie: sessionid={S}; csrftoken=abc", s(string.ascii_lowercase + string.digits, 32)),
    ("the vault root token is {S}", "hvs." + s(AN, 24)),
    ("~/.netrc has: machine github.com login ana password {S}", "ghp_" + s(AN, 36)),
    ("redis-cli -a {S} -h cache.internal", s(AN, 24)),
]
KEEP = [
    "fixed in commit " + s(HEX, 40) + " on main",
    "request " + uuid() + " timed out after 30 s",
    "image sha256:" + s(HEX, 64) + " is the one in prod",
    "integrity sha512-" + s(AN + "+/", 86) + "== for left-pad 1.3.0",
    "the token count was 40213 for that prompt",
    "password reset link sent to ana@example.com",
    "tracking number 1Z999AA10123456784 arrives Friday",
    "ISBN 978-0-13-468599-1 is the second edition",
    "arn:aws:iam::123456789012:role/deploy-role is the CI role",
    "s3://acme-backups/2026/11/25/brain.db.gz holds last night's backup",
    "the api_key parameter is required on every call",
    "PASSWORD=${DB_PASSWORD} in the compose file reads it from the environment",
    "token: <your-token-here>",
    "oid sha256:" + s(HEX, 64) + "\nsize 18204",
    'resourceVersion: "' + s(string.digits, 9) + '"',
    "order #A-" + s(string.digits, 8) + " shipped",
    "the secret to good bread is a long cold proof",
    "incomprehensibilities is a long ordinary word",
    "https://docs.acme.io/guides/authentication?tab=tokens#rotating",
    "postgresql://db.internal:5432/app (credentials from the vault)",
    "the session cookie is HttpOnly and SameSite=Lax",
    "our PIN policy: six digits, never reused",
    "the wifi network is HomeNet-5G on channel 36",
    "build " + s(HEX, 12) + " passed in 4m12s",
    "the key point of the doc is that tokens expire after 90 days",
]


def main() -> None:
    rows = labelled(SECRETS, KEEP)
    write(Path(__file__).parent / "corpus_fresh3.yaml", rows, "make_fresh3.py")
    print(len(SECRETS), "secrets,", len(KEEP), "look-alikes")


if __name__ == "__main__":
    main()
