"""Every relative link in the README, the changelog and docs/ leads somewhere.

A reader who follows a link from the front door must land on a file that exists and, when
the link names a section (``docs/catalog.md#any-sku-is-a-product-id``), on that heading as
GitHub renders its anchor. Links to other sites are not fetched (unit tests stay off the
network).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS]

_FENCE = re.compile(r"^\s*(```|~~~)")
_CODE_SPAN = re.compile(r"`+[^`]*`+")
# [text](target) or [text](target "title"); an image's ![alt](src) is a link too.
_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text, lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor in a Markdown file; repeated headings get -1, -2, ..."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        match = _HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """Each relative link of ``page`` whose file or heading does not exist, as
    ``page:line: target (why)``, the page named from ``root``."""
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for target in _LINK.findall(_CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # https:, mailto: and the like
            path_part, _, fragment = target.partition("#")
            where = (page.parent / path_part).resolve() if path_part else page
            name = page.relative_to(root)
            if not where.exists():
                problems.append(f"{name}:{number}: {target} (no such file)")
            elif fragment and where.suffix == ".md" and fragment not in anchors(where):
                problems.append(f"{name}:{number}: {target} (no heading with that anchor)")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves_to_a_file_and_heading(page: Path) -> None:
    # Given a page of the project's documentation
    # When every relative link in it is followed
    problems = broken_links(page)
    # Then each lands on an existing file, and on an existing heading when it names one
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_the_readme_links_every_doc_and_the_changelog() -> None:
    # Given the README, the front door
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = {
        (ROOT / target.partition("#")[0]).resolve()
        for _, line in prose_lines(readme)
        for target in _LINK.findall(_CODE_SPAN.sub("", line))
    }
    # Then a newcomer can reach every doc and the changelog from it
    unlinked = [
        str(page.relative_to(ROOT))
        for page in [*DOCS, ROOT / "CHANGELOG.md"]
        if page.resolve() not in targets
    ]
    assert not unlinked, f"the README links none of: {', '.join(unlinked)}"


def test_a_missing_file_and_a_missing_heading_are_reported(tmp_path: Path) -> None:
    # Given a page with a good link, a link to no file and a link to no heading
    (tmp_path / "other.md").write_text("# Other\n\n## A section: `code` too\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[good](other.md#a-section-code-too) [self](#page) [web](https://example.com)\n"
        "[gone](missing.md)\n"
        "[astray](other.md#no-such-section)\n"
        "```\n[in code](not-checked.md)\n```\n"
        "`[in a code span](not-checked.md)`\n"
    )
    # When its links are checked
    problems = broken_links(page, root=tmp_path)
    # Then exactly the two broken ones are named, with their line and why
    assert problems == [
        "page.md:4: missing.md (no such file)",
        "page.md:5: other.md#no-such-section (no heading with that anchor)",
    ]


_TOP_LEVEL = "|".join(
    sorted(p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith("."))
)
# `functions/converse/metering.py`, `docs/catalog.md`: a code span that is a path under a
# top-level folder of this repository and ends in a file's extension.
_REPO_PATH = re.compile(rf"`((?:{_TOP_LEVEL})/[\w./-]*\w\.[a-z]{{1,5}})`")


def missing_paths(page: Path, root: Path = ROOT) -> list[str]:
    """Each file a code span of ``page`` names (``functions/x/y.py``) that does not exist,
    as ``page:line: path``. The changelog is history and may name files since moved."""
    problems = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for path in _REPO_PATH.findall(line):
            if "*" not in path and not (root / path).exists():
                problems.append(f"{page.relative_to(root)}:{number}: {path}")
    return problems


@pytest.mark.parametrize("page", [ROOT / "README.md", *DOCS], ids=lambda p: p.name)
def test_every_file_a_page_names_in_code_exists(page: Path) -> None:
    # Given a page that points a reader at a file of this repository by its path
    # When each such path is looked up
    problems = missing_paths(page)
    # Then the reader finds the file there
    assert not problems, "paths that lead nowhere:\n" + "\n".join(problems)
