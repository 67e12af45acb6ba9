"""Writes corpus_dev.yaml and corpus_fresh.yaml: secrets as people paste them into a chat,
and look-alikes that must stay. Written on 2026-11-25 before the redaction rules were
changed; the tokens are random, in each vendor's published shape (none is a live key).

Run once: python tests/data/secrets/make_corpus.py (a fixed seed: the same files).
"""

from __future__ import annotations

import base64
import random
import string
from pathlib import Path

from corpus_file import labelled, write

R = random.Random(20261125)
AZ = string.ascii_letters
AN = string.ascii_letters + string.digits
LOWER_AN = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = AN + "+/"


def s(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def luhn_complete(prefix: str, length: int) -> str:
    digits = prefix + s(string.digits, length - len(prefix) - 1)
    for check in string.digits:
        candidate = digits + check
        total = 0
        for i, ch in enumerate(reversed(candidate)):
            d = int(ch)
            if i % 2:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return candidate
    raise AssertionError


def grouped(number: str, sep: str = " ") -> str:
    return sep.join(number[i : i + 4] for i in range(0, len(number), 4))


aws_id = "AKIA" + s(string.ascii_uppercase + string.digits, 16)
aws_secret = s(AN + "/+", 40)
card_visa = luhn_complete("4", 16)
card_mc = luhn_complete("52", 16)
card_amex = luhn_complete("37", 15)
pem_body = "\n".join(s(B64, 64) for _ in range(4))
ssh_body = "\n".join(s(B64, 70) for _ in range(3))
jwt = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    + base64.urlsafe_b64encode(b'{"sub":"1234567890","name":"Ana","iat":1732537200}')
    .decode()
    .rstrip("=")
    + "."
    + s(AN + "_-", 43)
)

# (text with {S} where the secret goes, the secret)
SECRETS = [
    ("here's my openai key {S} can you check why it 401s", "sk-proj-" + s(AN + "_-", 48)),
    ("ANTHROPIC_API_KEY={S}", "sk-ant-api03-" + s(AN + "_-", 93) + "AA"),
    ("aws creds: {S} / " + aws_secret, aws_id),
    ("aws_secret_access_key = {S}", aws_secret),
    ("export GITHUB_TOKEN={S}", "ghp_" + s(AN, 36)),
    ("the fine-grained PAT is {S}", "github_pat_" + s(AN, 22) + "_" + s(AN, 59)),
    ("gitlab token {S} for the runner", "glpat-" + s(AN + "_-", 20)),
    (
        "slack bot token: {S}",
        "xoxb-" + s(string.digits, 12) + "-" + s(string.digits, 13) + "-" + s(AN, 24),
    ),
    (
        "post to {S} when the build fails",
        "https://hooks.slack.com/services/T"
        + s(string.ascii_uppercase + string.digits, 10)
        + "/B"
        + s(string.ascii_uppercase + string.digits, 10)
        + "/"
        + s(AN, 24),
    ),
    ("stripe live key {S}", "sk_live_" + s(AN, 24)),
    ("restricted stripe key rk_live_ is {S}", "rk_live_" + s(AN, 24)),
    ("twilio api key {S} secret next", "SK" + s(HEX, 32)),
    ("SENDGRID_API_KEY={S}", "SG." + s(AN + "_-", 22) + "." + s(AN + "_-", 43)),
    ("mailchimp key {S}", s(HEX, 32) + "-us21"),
    ("shopify admin token {S}", "shpat_" + s(HEX, 32)),
    ("npm publish token {S}", "npm_" + s(AN, 36)),
    ("PyPI upload token: {S}", "pypi-AgEIcHlwaS5vcmc" + s(AN + "_-", 70)),
    ("docker hub pat {S}", "dckr_pat_" + s(AN + "_-", 27)),
    ("digitalocean token {S}", "dop_v1_" + s(HEX, 64)),
    ("linear api key {S}", "lin_api_" + s(AN, 40)),
    ("huggingface token {S}", "hf_" + s(AN, 34)),
    ("replicate token {S}", "r8_" + s(AN, 37)),
    ("groq key {S}", "gsk_" + s(AN, 52)),
    ("vault token {S}", "hvs." + s(AN + "_-", 90)),
    ("terraform cloud token {S}", s(AN, 14) + ".atlasv1." + s(AN + "_-", 67)),
    ("grafana cloud token {S}", "glc_" + s(AN + "+/", 32) + "=="),
    ("figma token {S}", "figd_" + s(AN + "_-", 40)),
    ("postman api key {S}", "PMAK-" + s(HEX, 24) + "-" + s(HEX, 34)),
    ("age secret key {S}", "AGE-SECRET-KEY-1" + s("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
    ("new relic user key {S}", "NRAK-" + s(string.ascii_uppercase + string.digits, 27)),
    ("databricks token {S}", "dapi" + s(HEX, 32)),
    ("planetscale token {S}", "pscale_tkn_" + s(AN + "_-", 43)),
    ("supabase access token {S}", "sbp_" + s(HEX, 40)),
    ("google maps key {S}", "AIza" + s(AN + "_-", 35)),
    ("jwt from the login response: {S}", jwt),
    ("curl -H 'Authorization: Bearer {S}' https://api.example.com/v1/me", s(AN + "._-", 40)),
    ("Authorization: Basic {S}", base64.b64encode(("admin:" + s(AN, 14)).encode()).decode()),
    ("DATABASE_URL=postgres://app:{S}@db.internal:5432/app", s(AN + "!#%", 18)),
    ("mongodb+srv://ana:{S}@cluster0.ab1cd.mongodb.net/prod", s(AN, 20)),
    ("redis://default:{S}@redis-1234.cloud.redislabs.com:12345", s(AN, 32)),
    (
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={S};EndpointSuffix=core.windows.net",
        s(AN + "+/", 86) + "==",
    ),
    ("-----BEGIN RSA PRIVATE KEY-----\n{S}\n-----END RSA PRIVATE KEY-----", pem_body),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\n{S}\n-----END OPENSSH PRIVATE KEY-----", ssh_body),
    ("my card is {S} exp 04/28", grouped(card_visa)),
    ("charge {S} please", grouped(card_mc, "-")),
    ("amex {S}", card_amex),
    ("password: {S}", s(AN + "!@#$%^&*", 14)),
    ('{{"db_password": "{S}"}}', s(AN, 16)),
    ("SECRET_KEY={S}", s(AN + "!@#$%^&*(-_=+)", 50)),
    ("client_secret: {S}", s(AN + "_-", 32)),
    ("the wifi password is {S}", "Tr0ub4dor&3x"),
    ("my bank login pw is {S} dont share", "Kx9!mQ2#vL7p"),
    ("api_key={S}", s(HEX, 32)),
    ("DATADOG_API_KEY={S}", s(HEX, 32)),
    ("telegram bot token {S}", s(string.digits, 10) + ":AA" + s(AN + "_-", 33)),
    ("discord bot token {S}", "MT" + s(AN, 24) + "." + s(AN + "_-", 6) + "." + s(AN + "_-", 38)),
    (
        "sentry dsn {S}",
        "https://"
        + s(HEX, 32)
        + "@o"
        + s(string.digits, 6)
        + ".ingest.sentry.io/"
        + s(string.digits, 7),
    ),
    ("doppler token {S}", "dp.pt." + s(AN, 43)),
    ("pulumi access token {S}", "pul-" + s(HEX, 40)),
    ("fly.io token {S}", "fo1_" + s(AN + "_-", 43)),
    ("square access token {S}", "EAAA" + s(AN + "_-", 60)),
    ("airtable pat {S}", "pat" + s(AN, 14) + "." + s(HEX, 64)),
    ("notion integration secret {S}", "secret_" + s(AN, 43)),
    ("openai service account key {S}", "sk-svcacct-" + s(AN + "_-", 60)),
    ('gcp service account json has "private_key_id": "{S}"', s(HEX, 40)),
    ("heroku api key: {S}", "HRKU-" + s(AN + "_-", 60)),
    (
        "clickup token {S}",
        "pk_" + s(string.digits, 8) + "_" + s(string.ascii_uppercase + string.digits, 32),
    ),
    ("my Vercel token is {S}", s(AN, 24)),
    ("OKTA_API_TOKEN=00{S}", s(AN + "_-", 40)),
    ("cloudflare api token: {S}", s(AN + "_-", 40)),
]

# Look-alikes that must come out exactly as they went in.
KEEP = [
    "fixed in commit " + s(HEX, 40),
    "see 3f9c2a7 and " + s(HEX, 7) + " for the revert",
    "request id " + "-".join(s(HEX, n) for n in (8, 4, 4, 4, 12)),
    "session " + "-".join(s(HEX, n) for n in (8, 4, 4, 4, 12)) + " expired",
    "antidisestablishmentarianism is a long word, as is floccinaucinihilipilification",
    "https://github.com/acme/brainbridge/pull/1234?tab=files&diff=split",
    "https://www.google.com/search?q=how+to+rotate+api+keys&hl=en",
    "order ORD-2026-000123 shipped, tracking 1Z999AA10123456784",
    "invoice INV-0004521 for 1,240.00 EUR is due on 2026-12-01",
    "ISBN 978-3-16-148410-0",
    "server at 10.0.12.7:8080 and 2001:db8::ff00:42:8329",
    "mac address 00:1A:2B:3C:4D:5E",
    "bump to version 2.14.0-rc.3+build.5678",
    "image ghcr.io/acme/api@sha256:" + s(HEX, 64),
    "container " + s(HEX, 64) + " exited with 137",
    "color #3f9c2a and rgba(12, 34, 56, 0.5)",
    "api_key = os.environ['OPENAI_API_KEY']",
    "token = get_token(session)",
    "def login(password: str) -> bool:",
    "max_tokens: 4096",
    "secret_santa: Bob draws Alice",
    "the key to success is consistency",
    "AKIA is the prefix AWS uses for access key ids",
    "put your key in OPENAI_API_KEY, e.g. sk-...",
    "export GITHUB_TOKEN=$GITHUB_TOKEN",
    "password: ${{ secrets.DB_PASSWORD }}",
    "the card 4111 1111 1111 1112 fails the checksum",
    "IMEI 490154203237518 on the box",
    "timestamp 1732537200000 in ms",
    "slack channel C0123ABCD and user U04ABCDEF",
    "stripe customer cus_NffrFeUfNV2Hib and payment pi_3MtwBwLkdIwHu7ix28a3tqPa",
    "twilio account AC" + s(HEX, 32),
    "arn:aws:iam::123456789012:role/deploy-role",
    "s3://acme-prod-logs/2026/11/25/",
    "integrity sha512-" + s(B64, 86) + "==",
    "main.3f9c2a71.chunk.js is the bundle",
    "k8s uid " + "-".join(s(HEX, n) for n in (8, 4, 4, 4, 12)),
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "call me at extension 4412 or room 3.14",
    "the tokenizer splits text into tokens",
    "password reset link expired, ask for a new one",
    "my password manager is Bitwarden",
    "use Bearer tokens, not cookies",
    "the secret ingredient is cardamom",
    "PR #4821 closes issue #4799",
    "ssh git@github.com:acme/infra.git",
    "pip install requests==2.32.3 numpy>=2.0",
    "SELECT * FROM users WHERE id = 42 AND token IS NULL",
    "/home/ana/projects/brainbridge/src/brainbridge/redact.py",
    "C:\\Users\\Ana\\AppData\\Local\\Temp\\build-7f3e",
    "the meeting id is 845 2231 9904",
    "flight LH1234 on 2026-12-24, booking ref QX7PLM",
    "postgres://localhost:5432/dev",
    "https://user@example.com/path is a URL with a user but no password",
    "key: value pairs in YAML",
    "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + s(B64, 43) + " ana@laptop",
    "the base64 of hello world is aGVsbG8gd29ybGQ=",
    "sk-learn is not a key, sklearn is the import name",
    "GHSA-jfh8-c2jp-5v3q is the advisory",
    "CVE-2024-3094 in xz",
    "wandb run ana/brainbridge/3f9c2a71",
    "model claude-sonnet-4-5-20250929 answered",
    "uuid4 hex " + s(HEX, 32),
    "md5 " + s(HEX, 32) + " of the file",
    "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor",
    "the pin code for the door is in the shared vault",
    "mortgage account 0012-3456-7890 for reference",
    "Tracking: 9400111899223197428490",
    "Bitcoin block 0000000000000000000" + s(HEX, 45),
]


def main() -> None:
    here = Path(__file__).parent
    dev, fresh = [], []
    for i, row in enumerate(labelled(SECRETS, KEEP)):
        (fresh if i % 3 == 2 else dev).append(row)
    for name, rows in (("corpus_dev.yaml", dev), ("corpus_fresh.yaml", fresh)):
        write(here / name, rows, "make_corpus.py")
    print(
        len(SECRETS), "secrets,", len(KEEP), "look-alikes;", len(dev), "dev,", len(fresh), "fresh"
    )


if __name__ == "__main__":
    main()
