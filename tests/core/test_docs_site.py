"""The README stays a short front page into the docs site, and the site holds every page.

The site itself is built with warnings as errors by ``make test`` (``mkdocs build
--strict``: broken links and anchors fail there); these tests hold what the build does
not check: the README's size and links, pages left out of the navigation, and the Review
page's keys kept in a table where a reader finds them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
README_LIMIT = 16 * 1024
#: ``[text](target)`` and ``![alt](target)``; the target ends at whitespace or ``)``.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def _config() -> dict[str, Any]:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert isinstance(config, dict)
    return config


def _nav_pages(entries: object) -> list[str]:
    """Every page file named in the navigation, depth first."""
    if isinstance(entries, str):
        return [entries]
    if isinstance(entries, list):
        return [page for entry in entries for page in _nav_pages(entry)]
    if isinstance(entries, dict):
        return [page for value in entries.values() for page in _nav_pages(value)]
    return []


def _links(markdown: str) -> list[str]:
    """The link and image targets of ``markdown`` outside code blocks and code spans."""
    prose = re.sub(r"```.*?```", "", markdown, flags=re.DOTALL)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    return LINK.findall(prose)


def test_the_readme_is_at_most_16_kb() -> None:
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes; move detail into docs/"


def test_the_readme_has_the_two_commands_the_tour_and_one_screenshot() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make run" in text
    assert "make test" in text
    steps = re.findall(r"^(\d)\. \*\*", text, flags=re.MULTILINE)
    assert steps == ["1", "2", "3", "4", "5"]
    images = [target for target in _links(text) if target.endswith(".png")]
    assert len(images) == 1


def test_the_readme_links_only_to_files_that_exist_and_pages_of_the_site() -> None:
    nav = set(_nav_pages(_config()["nav"]))
    targets = _links(README.read_text(encoding="utf-8"))
    assert targets, "the README links into the docs"
    for target in targets:
        assert not SCHEME.match(target), f"README links outside the project: {target}"
        path = target.split("#", 1)[0]
        assert (ROOT / path).is_file(), f"README links to a missing file: {target}"
        if path.startswith("docs/") and path.endswith(".md"):
            assert path.removeprefix("docs/") in nav, f"{path} is not a page of the site"


def test_a_link_to_a_missing_page_is_caught() -> None:
    """The link reader sees the links a README would hold (the check above can fail)."""
    text = "See [the guide](docs/guide/nowhere.md) and ![shot](docs/images/x.png), not `[a](b)`."
    assert _links(text) == ["docs/guide/nowhere.md", "docs/images/x.png"]


def test_every_page_is_in_the_navigation_and_every_entry_exists() -> None:
    config = _config()
    nav = _nav_pages(config["nav"])
    assert len(nav) == len(set(nav)), "a page is listed twice"
    for page in nav:
        assert (DOCS / page).is_file(), f"mkdocs.yml lists a missing page: {page}"
    left_out = set(str(config.get("not_in_nav", "")).split())
    pages = {
        path.relative_to(DOCS).as_posix()
        for path in DOCS.rglob("*.md")
        if "hooks" not in path.relative_to(DOCS).parts
    }
    assert pages - set(nav) - left_out == set()


def test_the_site_fetches_nothing_at_build_time() -> None:
    config = _config()
    assert config["theme"]["font"] is False
    assert "analytics" not in config.get("extra", {})
    plugins = [p if isinstance(p, str) else next(iter(p)) for p in config.get("plugins", [])]
    assert set(plugins) <= {"search"}


@pytest.mark.parametrize(
    "key", ["++1++", "++9++", "++0++", "++enter++", "++ctrl+enter++", "++ctrl+s++", "++ctrl+5++"]
)
def test_the_review_keys_are_rows_of_a_table(key: str) -> None:
    text = (DOCS / "guide" / "review.md").read_text(encoding="utf-8")
    section = text.split("### Keys", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    assert any(key in row.split("|")[1] for row in rows), f"{key} is not in the keys table"
