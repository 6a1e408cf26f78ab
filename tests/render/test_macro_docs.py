"""The macro property files (macros/**/*.yml) as dbt reads them at parse
time: every description is Jinja that dbt's environment can parse (dbt
renders them; a stray `{{` fails every dbt command of a project that installs
the package), every documented macro exists, with the arguments it documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import jinja2.nodes
import pytest
import yaml

from .harness import Package, package


def _doc_files() -> list[Path]:
    return sorted(package().macro_dir.rglob("*.yml"))


def _descriptions(node: Any, where: str) -> list[tuple[str, str]]:
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{where}.{key}" if not isinstance(node.get("name"), str) else f"{where}[{node['name']}].{key}"
            if key == "description" and isinstance(value, str):
                out.append((here, value))
            else:
                out += _descriptions(value, here)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            out += _descriptions(item, f"{where}[{i}]")
    return out


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: p.name)
def test_descriptions_are_jinja_dbt_can_parse(pkg: Package, path: Path) -> None:
    doc = yaml.safe_load(path.read_text())
    found = _descriptions(doc, path.name)
    assert found, f"{path} documents nothing"
    bad = []
    for where, text in found:
        try:
            pkg.env.parse(text)
        except jinja2.TemplateSyntaxError as exc:
            bad.append(f"{where}: {exc.message} (line {exc.lineno})")
    assert not bad, "descriptions dbt cannot parse:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: p.name)
def test_documented_macros_and_arguments_exist(pkg: Package, path: Path) -> None:
    doc = yaml.safe_load(path.read_text())
    for entry in doc.get("macros", []):
        name = entry["name"]
        assert name in pkg.sources, f"{path.name} documents {name}, which is not a macro"
        macro = next(pkg.env.parse(pkg.sources[name].sql).find_all(jinja2.nodes.Macro))
        params = {a.name for a in macro.args}
        documented = {str(a["name"]) for a in entry.get("arguments", [])}
        assert documented <= params, f"{name}: documented arguments {sorted(documented - params)} are not parameters"
