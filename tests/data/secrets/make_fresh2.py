"""Writes corpus_fresh2.yaml: written on 2026-11-25 after `fresh` was scored (recall 0.70)
and before the general "key word + high-entropy token" rule was built, with shapes that
neither dev nor fresh holds. Scored once by the reported benchmark run.
"""

from __future__ import annotations

import base64
import random
import string
from pathlib import Path

from corpus_file import labelled, write

R = random.Random(20261126)
AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def s(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


uuid = "-".join(s(HEX, n) for n in (8, 4, 4, 4, 12))
SECRETS = [
    ("anthropic admin key {S}", "sk-ant-admin01-" + s(AN + "_-", 90) + "AA"),
    ("langsmith key: {S}", "lsv2_pt_" + s(HEX, 32) + "_" + s(HEX, 10)),
    ("pinecone api key {S}", "pcsk_" + s(AN, 5) + "_" + s(AN, 60)),
    ("resend api key is {S}", "re_" + s(AN, 8) + "_" + s(AN, 24)),
    ("neon api key {S}", "napi_" + s(LOWER := string.ascii_lowercase + string.digits, 64)),
    ("contentful token {S}", "CFPAT-" + s(AN + "_-", 43)),
    ("hubspot private app token {S}", "pat-na1-" + uuid),
    ("atlassian api token {S}", "ATATT3xFfGF0" + s(AN + "_-", 180) + "=" + s(HEX.upper(), 8)),
    ("bitbucket app password {S}", "ATBB" + s(AN, 28) + s(HEX.upper(), 8)),
    ("curl -H 'api-key: {S}' https://acme.openai.azure.com/", s(HEX, 32)),
    ("curl -H 'x-api-key: {S}' https://api.acme.io/v2", s(AN, 40)),
    ("GET https://api.acme.io/v1/items?api_key={S}&page=2", s(AN, 32)),
    ("the callback was https://app.acme.io/cb?access_token={S}", s(AN + "._-", 48)),
    (
        '"private_key": "-----BEGIN PRIVATE KEY-----\\n{S}\\n-----END PRIVATE KEY-----\\n"',
        s(AN + "+/", 64) + "\\n" + s(AN + "+/", 64),
    ),
    (
        "machine api.heroku.com login ana@example.com password {S}",
        s(HEX, 8) + "-" + s(HEX, 4) + "-" + s(HEX, 4) + "-" + s(HEX, 4) + "-" + s(HEX, 12),
    ),
    ("db.internal:5432:app:app_user:{S}", s(AN + "!#", 20)),
    (
        '{{"auths": {{"ghcr.io": {{"auth": "{S}"}}}}}}',
        base64.b64encode(("ana:ghp_" + s(AN, 36)).encode()).decode(),
    ),
    ("Authorization: token {S}", "gho_" + s(AN, 36)),
    ("mistral api key {S}", s(AN, 32)),
    ("cohere key {S}", s(AN, 40)),
    ("my upstash redis token is {S}", "A" + s(AN, 60) + "="),
    ("the render api key rnd_{S}", s(AN, 32)),
    ("wifi: network HomeNet, passphrase {S}", "correct-h0rse-battery-st4ple"),
    ("my pin for the banking app is {S}", "8472-Kx"),
    ("deploy key secret: {S}", s(AN + "/+", 44) + "="),
]
KEEP = [
    "pinecone index products-v2 in us-east-1",
    "the hubspot portal id is 43880012",
    "contentful space id " + s(string.ascii_lowercase + string.digits, 12),
    "azure openai deployment gpt-4o-2024-08-06 in eastus2",
    "x-request-id: " + uuid,
    "GET https://api.acme.io/v1/items?page=2&per_page=50&sort=created_at",
    "https://app.acme.io/cb?state=xyz&code_challenge_method=S256",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + s(AN + "+/", 43) + " deploy@ci is the public key",
    "the API key rotation runbook is in Notion under Security",
    "token budget per request is 8000, key point: keep prompts short",
    "Use `secrets.token_urlsafe(32)` to make a new one",
    'etag W/"' + s(HEX, 32) + '"',
    'ETag: "' + s(HEX, 40) + '"',
    "the pgpass format is host:port:database:username:password",
    "git remote add origin https://github.com/acme/api.git",
    "our Slack workspace is acme-eng.slack.com",
    "sentry project acme-api, org acme, release 2026.11.25+" + s(HEX, 7),
    "content hash " + s(HEX, 64) + " matches",
    "signature verified with key id 0x" + s(HEX.upper(), 16),
    "booking code ZX4-98KQ-77 for the hotel",
    "translation key checkout.payment.card_declined is missing in de.json",
    "pass the --token-file flag, never the token itself",
    "openssl rand -hex 32 prints a fresh secret",
    "the keycloak realm is acme-prod and the client id is web-app",
    "jwt.io shows the header alg HS256 and typ JWT",
]


def main() -> None:
    rows = labelled(SECRETS, KEEP)
    write(Path(__file__).parent / "corpus_fresh2.yaml", rows, "make_fresh2.py")
    print(len(SECRETS), "secrets,", len(KEEP), "look-alikes")


if __name__ == "__main__":
    main()
