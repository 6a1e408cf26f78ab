"""The README a new user reads in ten minutes, and the docs behind it (no Spark).

- README.md: at most 450 lines, no dates or UTC stamps (history goes to
  CHANGELOG.md, timings to CONTRIBUTING.md and docs/), and the two commands
  (`make demo`, `make test`) in its first 30 lines.
- Every relative link in README.md, CONTRIBUTING.md, CHANGELOG.md and
  docs/**/*.md resolves: the file or directory exists and an `#anchor` names a
  heading of the target, slugged as GitHub slugs headings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"

MAX_README_LINES = 450
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
UTC = re.compile(r"\bUTC\b")

FENCE = re.compile(r"^\s*(```|~~~)")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target "title") and ![alt](target); text may hold one level of brackets
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"", re.IGNORECASE)


def doc_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    return files


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks."""
    out = []
    in_fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if not in_fence:
            out.append((number, line))
    return out


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a heading: markup dropped, lowercased, every
    character but letters, digits, spaces, hyphens and underscores removed,
    spaces made hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text)  # html tags
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor a Markdown file defines: heading slugs (repeats get -1,
    -2, ... as on GitHub) and explicit <a name|id> anchors."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match:
            slug = github_slug(match.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            found.add(slug if count == 0 else f"{slug}-{count}")
        found.update(a.lower() for a in HTML_ANCHOR.findall(line))
    return found


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every link outside code."""
    out = []
    for number, line in prose_lines(text):
        bare = INLINE_CODE.sub("", line)
        out += [(number, target) for target in INLINE_LINK.findall(bare)]
        ref = REFERENCE_DEF.match(bare)
        if ref:
            out.append((number, ref.group(1)))
    return out


def broken_links(path: Path) -> list[str]:
    """What is wrong with each relative link of `path`, as 'line N: target: why'."""
    problems = []
    for number, target in links(path.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        resolved = path if not file_part else (path.parent / file_part).resolve()
        if not resolved.exists():
            problems.append(f"line {number}: {target}: {file_part} does not exist")
            continue
        if anchor:
            if resolved.is_dir() or resolved.suffix.lower() != ".md":
                problems.append(f"line {number}: {target}: an anchor into a file that is not Markdown")
            elif anchor.lower() not in anchors(resolved):
                problems.append(f"line {number}: {target}: no heading with anchor #{anchor} in {resolved.name}")
    return problems


def test_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines, at most {MAX_README_LINES}"


def test_readme_has_no_dates_or_utc_stamps() -> None:
    found = [
        f"line {number}: {line.strip()}"
        for number, line in enumerate(README.read_text(encoding="utf-8").splitlines(), start=1)
        if DATE.search(line) or UTC.search(line)
    ]
    assert not found, "README.md holds dates (history goes to CHANGELOG.md):\n" + "\n".join(found)


def test_readme_opens_with_the_two_commands() -> None:
    head = "\n".join(README.read_text(encoding="utf-8").splitlines()[:30])
    assert "make demo" in head
    assert "make test" in head


def test_the_docs_exist() -> None:
    for name in ("CONTRIBUTING.md", "CHANGELOG.md", "docs/performance.md"):
        assert (ROOT / name).is_file(), name
    assert list((ROOT / "docs" / "guide").glob("*.md"))
    assert list((ROOT / "docs" / "decisions").glob("[0-9][0-9][0-9][0-9]-*.md"))


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(path: Path) -> None:
    problems = broken_links(path)
    assert not problems, f"{path.relative_to(ROOT)} has broken links:\n" + "\n".join(problems)


def test_the_link_check_finds_broken_links(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## Its `code` section, (with) punctuation\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## A section\n\n"
        "[ok](other.md) [ok anchor](other.md#its-code-section-with-punctuation) [here](#a-section)\n"
        "[missing file](nowhere.md) [missing anchor](other.md#no-such-heading) [missing here](#nope)\n"
        "`[in code](ignored.md)` [web](https://example.com/x)\n"
        "```\n[in a fence](ignored-too.md)\n```\n"
    )
    problems = broken_links(page)
    assert len(problems) == 3, problems
    assert "nowhere.md" in problems[0]
    assert "#no-such-heading" in problems[1]
    assert "#nope" in problems[2]


def test_github_slugs() -> None:
    assert github_slug("skew_join") == "skew_join"
    assert github_slug("The CLI: skewjoin profile and skewjoin prune") == "the-cli-skewjoin-profile-and-skewjoin-prune"
    assert github_slug("The default size, and uniform data") == "the-default-size-and-uniform-data"
    assert github_slug("skew_join: 'auto' against `x` (a b)") == "skew_join-auto-against-x-a-b"
