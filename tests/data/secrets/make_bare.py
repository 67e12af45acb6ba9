"""Write corpus_bare_tune.yaml and corpus_bare_heldout.yaml: synthetic tokens of providers'
published formats (random characters of the right shape, never real keys), bare and
labelled, in prose and in code, plus look-alikes that must stay (UUIDs, hashes, paths, code).

The corpus was written before the rules it scores. Rules are tuned on `tune` only; `heldout`
holds other random tokens, other sentences and providers that `tune` never shows, and is
scored once. Run: python tests/data/secrets/make_bare.py
"""

from __future__ import annotations

import random
import string
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
A, L, U, D = (
    string.ascii_letters + string.digits,
    string.ascii_lowercase,
    string.ascii_uppercase,
    string.digits,
)
HEX = "0123456789abcdef"
B64URL = A + "_-"


def r(rng: random.Random, chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


# provider -> a maker of one token of its published shape.
SHAPES = {
    "github_classic": lambda g: "ghp_" + r(g, A, 36),
    "github_oauth": lambda g: "gho_" + r(g, A, 36),
    "github_app": lambda g: "ghs_" + r(g, A, 36),
    "github_fine": lambda g: "github_pat_" + r(g, A, 22) + "_" + r(g, A, 59),
    "openai": lambda g: "sk-" + r(g, A, 48),
    "openai_project": lambda g: "sk-proj-" + r(g, B64URL, 124),
    "anthropic": lambda g: "sk-ant-api03-" + r(g, B64URL, 93) + "AA",
    "stripe_secret": lambda g: "sk_live_" + r(g, A, 99),
    "stripe_restricted": lambda g: "rk_live_" + r(g, A, 99),
    "google": lambda g: "AIza" + r(g, B64URL, 35),
    "slack_bot": lambda g: f"xoxb-{r(g, D, 12)}-{r(g, D, 13)}-{r(g, A, 24)}",
    "slack_user": lambda g: f"xoxp-{r(g, D, 12)}-{r(g, D, 12)}-{r(g, D, 13)}-{r(g, HEX, 32)}",
    "aws": lambda g: "AKIA" + r(g, U + "234567", 16),
    "gitlab": lambda g: "glpat-" + r(g, B64URL, 20),
    "npm": lambda g: "npm_" + r(g, A, 36),
    "huggingface": lambda g: "hf_" + r(g, string.ascii_letters, 34),
    "sendgrid": lambda g: "SG." + r(g, B64URL, 22) + "." + r(g, B64URL, 43),
    "twilio": lambda g: "SK" + r(g, HEX, 32),
    "digitalocean": lambda g: "dop_v1_" + r(g, HEX, 64),
    "pypi": lambda g: "pypi-AgEIcHlwaS5vcmc" + r(g, B64URL, 70),
    "shopify": lambda g: "shpat_" + r(g, HEX, 32),
    "groq": lambda g: "gsk_" + r(g, A, 52),
    "databricks": lambda g: "dapi" + r(g, HEX, 32),
    "doppler": lambda g: "dp.st." + r(g, A, 43),
    "linear": lambda g: "lin_api_" + r(g, A, 40),
    "postman": lambda g: f"PMAK-{r(g, HEX, 24)}-{r(g, HEX, 34)}",
    "newrelic": lambda g: "NRAK-" + r(g, U + D, 27),
    "grafana": lambda g: f"glsa_{r(g, A, 32)}_{r(g, HEX, 8)}",
    "planetscale": lambda g: "pscale_tkn_" + r(g, A, 43),
    "dockerhub": lambda g: "dckr_pat_" + r(g, B64URL, 27),
    "openrouter": lambda g: "sk-or-v1-" + r(g, HEX, 64),
    "age": lambda g: "AGE-SECRET-KEY-1" + r(g, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
    "vault": lambda g: "hvs." + r(g, A, 24),
    "pulumi": lambda g: "pul-" + r(g, HEX, 40),
    "supabase": lambda g: "sbp_" + r(g, HEX, 40),
    "sentry_user": lambda g: "sntryu_" + r(g, HEX, 64),
    "contentful": lambda g: "CFPAT-" + r(g, B64URL, 43),
    "square": lambda g: "sq0atp-" + r(g, B64URL, 22),
    "shippo": lambda g: "shippo_live_" + r(g, HEX, 40),
    "perplexity": lambda g: "pplx-" + r(g, A, 48),
    "xai": lambda g: "xai-" + r(g, A, 80),
    "figma": lambda g: "figd_" + r(g, B64URL, 40),
    "notion": lambda g: "ntn_" + r(g, A, 46),
    "tailscale": lambda g: f"tskey-auth-{r(g, A, 17)}-{r(g, A, 33)}",
    "fly": lambda g: "fo1_" + r(g, B64URL, 43),
}
# Providers the tuning part never shows: held out whole, to see whether the rules
# generalise to shapes nobody wrote a rule for from this corpus.
UNSEEN = {
    "planetscale",
    "dockerhub",
    "age",
    "sentry_user",
    "contentful",
    "shippo",
    "perplexity",
    "figma",
    "notion",
    "tailscale",
    "fly",
    "xai",
    "pulumi",
    "supabase",
}
TUNE_TEMPLATES = [
    "{t}",
    "here it is: {t}",
    "why does the deploy fail with {t} ?",
    "export {V}={t}",
    '{v} = "{t}"',
    "curl -H 'Authorization: token {t}' https://api.example.com",
    "the CI job uses {t} and keeps failing",
]
HELDOUT_TEMPLATES = [
    "{t} is what the dashboard gave me",
    "pasted from my notes ({t}), does it still work?",
    "{V}: {t}",
    'client = Client(api_key="{t}")',
    "- name: deploy\n  env:\n    {V}: {t}",
    "ok so the value is {t} - rotate it tomorrow",
    "run it with `{t}` as the only argument",
]
# Look-alikes: ordinary text, code, ids, hashes and paths that must come out unchanged.
KEEP = [
    "fix the flaky test in tests/api/test_socket.py before the release",
    "session 9f1c2a7e-5b3d-4c8e-a1f0-6d2b7e9c4a10 ended at 14:02",
    "commit 3f9c2a1e8b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a reverts the migration",
    "sha256: 2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881",
    "image: ghcr.io/acme/api@sha256:5b0b7e0a3c1f2d4e6a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f",
    "see /home/dev/src/app/config/settings_production.py line 40",
    "def get_user_token_from_request_headers(request): ...",
    "the pod api-server-7d9f8b6c5-x2k4p restarted twice",
    "task-ant-colony-simulation-runner is the job name",
    "risk-assessment-for-the-quarterly-review.md",
    "pip install sk-learn-extensions==0.4.1",
    "const MAX_RETRY_BACKOFF_MILLISECONDS = 30000",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "npm_config_registry is set in .npmrc",
    "hf_hub_download(repo_id='bert-base-uncased', filename='config.json')",
    "the SKU is SK-2024-BLUE-XL",
    "use AKIA as a prefix check in the linter, nothing more",
    "glpat- tokens expire after a year by default",
    "dop_v1_ keys are per team",
    "xoxb tokens are for bots, xoxp for users",
    "version v2.14.3-rc.1+build.5521 shipped",
    "Base class: class PaymentGatewayClientFactory(AbstractFactory)",
    "the order id is ORD-20260314-000123",
    "trace_id=4bf92f3566dcdf5f62fd0a4db1f3c1a2 span_id=00f067aa0ba902b7",
    "my_variable_name_is_long_but_harmless_and_boring = 3",
    "C:\\Users\\dana\\AppData\\Local\\Programs\\Python\\Python311\\python.exe",
    "the file IMG_20260314_093000_HDR.jpg is 4 MB",
    "the bucket s3://acme-prod-billing-exports-2026/reports/ is private",
    "ulid 01HRZ8Y3K4N5P6Q7R8S9T0V1W2 for the row",
    "pk_test_ and pk_live_ keys are publishable, not secret",
]


def rows(part: str, seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    templates = TUNE_TEMPLATES if part == "tune" else HELDOUT_TEMPLATES
    out = []
    for name, make in SHAPES.items():
        if part == "tune" and name in UNSEEN:
            continue
        var = name.upper() + "_TOKEN"
        for template in templates:
            token = make(rng)
            out.append(
                {
                    "provider": name,
                    "text": template.format(t=token, V=var, v=var.lower()),
                    "secret": token,
                }
            )
    keep = KEEP[::2] if part == "tune" else KEEP[1::2]
    out += [{"text": k, "keep": True} for k in keep]
    return out


if __name__ == "__main__":
    for part, seed in (("tune", 1), ("heldout", 2)):
        path = HERE / f"corpus_bare_{part}.yaml"
        head = f"# Generated by make_bare.py ({part}); synthetic tokens, never real keys.\n"
        path.write_text(
            head + yaml.safe_dump(rows(part, seed), sort_keys=False, width=200), "utf-8"
        )
