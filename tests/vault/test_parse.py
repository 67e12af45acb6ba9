"""Reading one note: links in every form Obsidian writes, excerpts, slugs, any bytes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brainbridge.vault import excerpt, parse_note, slugify
from brainbridge.vault.parse import NotText


def _note(tmp_path: Path, rel: str, text: str | bytes):
    path = tmp_path / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return parse_note(path, tmp_path)


@pytest.mark.parametrize(
    ("body", "links"),
    [
        ("[[Target]]", ["Target"]),
        ("[[Target|shown text]]", ["Target"]),
        ("[[Target#Heading]] and [[Target#^block-id]]", ["Target"]),
        ("[[folder/Target#Heading|alias]]", ["folder/Target"]),
        ("![[Embedded note]]", ["Embedded note"]),
        ("![[diagram.png]] [[paper.pdf]]", []),  # attachments are not notes
        ("[text](other.md)", ["notes/other.md"]),
        ("[text](./other.md#part)", ["notes/other.md"]),
        ("[up](../top.md)", ["top.md"]),
        ("[root](/ops/runbook.md)", ["ops/runbook.md"]),
        ("[spaces](My%20Note.md)", ["notes/My Note.md"]),
        ("[angle](<My Note.md>)", ["notes/My Note.md"]),
        ("[outside](../../etc/passwd.md)", []),
        ("[web](https://example.com/page.md) <https://x.org>", []),
        ("`[[in code]]` and\n```\n[[in a fence]]\n```\n[[after]]", ["after"]),
        ("[[A]] [[A|again]] [[A#h]]", ["A"]),
    ],
)
def test_links_in_every_form(tmp_path: Path, body: str, links: list[str]) -> None:
    assert list(_note(tmp_path, "notes/n.md", body).links) == links


def test_frontmatter_fields(tmp_path: Path) -> None:
    note = _note(
        tmp_path,
        "a/My Note.md",
        "---\ntitle: Shown Title\ntype: Decision\ntags: '#one, two'\nalias: other name\n"
        "slug: custom-slug\ndue: 2024-06-01\nnested: {a: 1}\n---\n# Body\ntext\n",
    )
    assert note.title == "Shown Title"
    assert note.type == "Decision"
    assert note.tags == ("one", "two")
    assert note.aliases == ("other name",)
    assert note.slug == "custom-slug"
    assert note.extra == {"due": "2024-06-01"}  # dates as ISO text; mappings dropped
    assert note.body == "# Body\ntext"
    assert note.warning is None


def test_no_frontmatter_title_from_file_and_slug_from_path(tmp_path: Path) -> None:
    note = _note(tmp_path, "Ops/Run Books/Restart the Proxy.md", "just text")
    assert (note.title, note.slug) == ("Restart the Proxy", "ops-run-books-restart-the-proxy")
    assert note.rel_path == "Ops/Run Books/Restart the Proxy.md"


def test_a_byte_order_mark_does_not_hide_the_frontmatter(tmp_path: Path) -> None:
    note = _note(tmp_path, "bom.md", b"\xef\xbb\xbf---\ntitle: With BOM\n---\nbody\n")
    assert (note.title, note.body, note.warning) == ("With BOM", "body", None)


def test_frontmatter_that_is_not_a_mapping_is_a_warning(tmp_path: Path) -> None:
    note = _note(tmp_path, "list.md", "---\n- a\n- b\n---\nbody\n")
    assert note.warning == "frontmatter is not a mapping; ignored"
    assert (note.title, note.body) == ("list", "body")


def test_the_content_hash_sees_changes_past_the_size_cap(tmp_path: Path) -> None:
    big = "x" * 6_000_000
    one = _note(tmp_path, "big.md", big + "a")
    two = _note(tmp_path, "big.md", big + "b")
    assert one.content_hash != two.content_hash


@pytest.mark.parametrize(
    ("body", "text"),
    [
        ("# Heading\n\nSome **bold** and _italic_ text.", "Heading Some bold and italic text."),
        ("> quoted\n- item one\n- [ ] task two\n1. first", "quoted item one task two 1. first"),
        ("See [[Target|the target]] and [[Other#Part]].", "See the target and Other."),
        ("A [link](https://x.org) and ![img](a.png) here.", "A link and here."),
        (
            "Run `max_tokens=5` in snake_case_name and C# or ~/.brain",
            "Run max_tokens=5 in snake_case_name and C# or ~/.brain",
        ),
        ("```python\nprint(1)\n```\nafter <!-- hidden --> %%secret%%", "print(1) after"),
        ("---\n\n***\nrule above", "rule above"),
    ],
)
def test_excerpt_removes_markup_not_words(body: str, text: str) -> None:
    assert excerpt(body) == text


_PLAIN = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")).filter(
        lambda c: c not in "#>*_`~[]!=%<-+|" and not c.isspace()
    )
    | st.sampled_from([" ", "\n", "\t"]),
    max_size=400,
)


@given(_PLAIN)
def test_excerpt_of_plain_text_is_its_first_200_characters(text: str) -> None:
    assert excerpt(text) == " ".join(text.split())[:200].rstrip()


@given(st.text(max_size=600), st.integers(min_value=0, max_value=300))
def test_excerpt_is_never_longer_than_asked(text: str, n: int) -> None:
    out = excerpt(text, n)
    assert len(out) <= n
    assert out == out.strip() and "\n" not in out


@given(st.text(max_size=80))
def test_slugs_are_stable_words_and_hyphens(text: str) -> None:
    slug = slugify(text)
    assert slug and re.fullmatch(r"[\w]+(?:-[\w]+)*", slug.replace("_", "a"))
    assert slugify(slug) == slug


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=2000))
def test_any_bytes_parse_without_an_exception(tmp_path: Path, data: bytes) -> None:
    if b"\x00" in data:  # binary content: refused as such, the one documented exception
        with pytest.raises(NotText):
            _note(tmp_path, "any.md", data)
        return
    note = _note(tmp_path, "any.md", data)
    assert note.title == "any"
    assert note.rel_path == "any.md"
    note.body.encode("utf-8")  # text a database accepts
