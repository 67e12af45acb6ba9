"""Writes corpus_fresh4.yaml: written on 2026-11-25 after `fresh3` was scored once (recall
0.88; a 2FA backup code, a session cookie and `redis-cli -a` were missed and then read) and
before the rules changed for them, with shapes no other split holds. Scored once by the
reported benchmark run.
"""

from __future__ import annotations

import base64
import random
import string
from pathlib import Path

from corpus_file import labelled, write

R = random.Random(20261128)
AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"


def s(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def password() -> str:
    return s(string.ascii_letters, 5) + s(string.digits, 3) + R.choice("!$%*") + s(AN, 5)


SECRETS = [
    ("sshpass -p '{S}' ssh deploy@build.acme.io", password()),
    ("mysql -u root -p{S} app < dump.sql", password()),
    ("curl -u admin:{S} https://jenkins.acme.io/api/json", password()),
    ("docker login -u ana -p {S} registry.acme.io", password()),
    ("PGPASSWORD={S} psql -h db.internal -U app", password()),
    ("Set-Cookie: __Secure-next-auth.session-token={S}; Path=/; HttpOnly", s(AN + "-_", 64)),
    ("the master password for my password manager is '{S}'", password()),
    ("ftp://ana:{S}@files.acme.io/incoming/", password()),
    ("smb://ana:{S}@nas.local/share", password()),
    ("BROKER_URL=amqp://guest:{S}@rabbit:5672/", password()),
    ("LDAP bind password: {S}", password()),
    ("huggingface token {S}", "hf_" + s(AN, 34)),
    ("xai key {S}", "xai-" + s(AN, 80)),
    ("openrouter key {S}", "sk-or-v1-" + s(HEX, 64)),
    ("tavily api key {S}", "tvly-" + s(AN, 32)),
    ("perplexity key: {S}", "pplx-" + s(AN, 48)),
    ("Authorization: Bearer {S}", "ya29." + s(AN + "-_", 120)),
    ("facebook page token {S}", "EAAB" + s(AN, 160)),
    (
        "slack app-level token {S}",
        "xapp-1-A"
        + s(string.ascii_uppercase + string.digits, 10)
        + "-"
        + s(string.digits, 13)
        + "-"
        + s(HEX, 64),
    ),
    ("digitalocean token {S}", "dop_v1_" + s(HEX, 64)),
    ("Authorization: Basic {S}", base64.b64encode(f"ana:{password()}".encode()).decode()),
    (
        "my wallet seed phrase is {S}",
        "abandon ability able about above absent absorb abstract absurd abuse access accident",
    ),
    ("export OPENAI_API_KEY='{S}'", "sk-proj-" + s(AN + "_-", 120)),
    ("otpauth://totp/Acme:ana?secret={S}&issuer=Acme", s("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)),
    ("the recovery key for the disk is {S}", "-".join(s(string.digits, 6) for _ in range(8))),
]
KEEP = [
    "psql --password-file ~/.pgpass -h db.internal",
    "docker login -u ana registry.acme.io (it asks for the password)",
    "curl -u admin https://jenkins.acme.io/api/json prompts for the password",
    "Set-Cookie: theme=dark; Path=/; SameSite=Lax",
    "ftp://files.acme.io/pub/releases/",
    "PGPASSWORD is read from the environment, never from the command line",
    "mysql -u root -p app (it asks)",
    "redis-cli -h cache.internal -p 6379 ping",
    "sshpass -f ~/.sshpass ssh deploy@build.acme.io",
    "sk-or-v1 is OpenRouter's key prefix",
    'WWW-Authenticate: Basic realm="acme"',
    "the backup code feature is under Settings → Security",
    "the brand colour is #ff5733 on white",
    "release v2.14.0-rc.1+build.5 is out",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    + s(AN + "+/", 40)
    + "==",
    "an AWS key id is AKIA followed by 16 upper-case letters and digits",
    "kubectl get secret db-creds -o yaml shows the keys, base64-encoded",
    "the session cookie is named sessionid",
    "twelve words from the BIP-39 list make a seed phrase",
    "ISIN US0378331005 is Apple's",
    "ticket JIRA-4521 tracks the login bug",
    "the OTP is six digits and expires after 30 seconds",
    "commit " + s(HEX, 40) + " bumped the version",
    "the token endpoint is https://auth.acme.io/oauth/token",
    "set the password policy to 12 characters minimum",
]


def main() -> None:
    rows = labelled(SECRETS, KEEP)
    write(Path(__file__).parent / "corpus_fresh4.yaml", rows, "make_fresh4.py")
    print(len(SECRETS), "secrets,", len(KEEP), "look-alikes")


if __name__ == "__main__":
    main()
