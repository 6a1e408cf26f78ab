"""The slot count a dbt project will run ``skew_join`` with, read from the project and its target.

The ``skew_join`` macro takes ``total_slots`` from the spec, else
``var('skewjoin_total_slots')``, else the session's
``spark.sql.shuffle.partitions``. :func:`target_total_slots` reads the same
sources the way dbt does, so that ``skewjoin profile`` plans with the number
the user's models will use:

1. ``vars: skewjoin_total_slots`` in the project's ``dbt_project.yml``
   (global, or scoped to the project's name);
2. ``spark.sql.shuffle.partitions`` in the target's ``server_side_parameters``
   (``profiles.yml``, rendered by dbt itself: ``env_var()`` works).

dbt is imported only when a ``profiles.yml`` has to be rendered.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from skewjoin.errors import DbtTargetError

TOTAL_SLOTS_VAR = "skewjoin_total_slots"
SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions"


@dataclass(frozen=True)
class TargetSlots:
    """A slot count and where it was found; ``total_slots`` is None when neither source sets one."""

    total_slots: int | None
    source: str


def default_profiles_dir() -> Path:
    """Where dbt looks for profiles.yml: ``$DBT_PROFILES_DIR``, the working directory, ``~/.dbt``."""
    if os.environ.get("DBT_PROFILES_DIR"):
        return Path(os.environ["DBT_PROFILES_DIR"])
    if Path("profiles.yml").is_file():
        return Path(".")
    return Path.home() / ".dbt"


def _whole_number(value: Any, where: str) -> int:
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or int(text) < 2:
        raise DbtTargetError(f"{where} is {value!r}; a slot count is a whole number of at least 2")
    return int(text)


def _render(data: Any) -> Any:
    """*data* with dbt's Jinja rendered (``env_var()``, ``as_number``), as ``dbt run`` sees it."""
    from dbt.config.renderer import ProfileRenderer
    from dbt_common.context import set_invocation_context

    set_invocation_context(dict(os.environ))
    try:
        return ProfileRenderer({}).render_data(data)
    except Exception as exc:  # dbt's CompilationError and friends
        raise DbtTargetError(f"dbt could not render the profile: {' '.join(str(exc).split())}") from exc


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError as exc:
        raise DbtTargetError(f"no {path.name} in {path.parent}") from exc
    except (OSError, yaml.YAMLError) as exc:
        raise DbtTargetError(f"cannot read {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise DbtTargetError(f"{path} is not a YAML mapping")
    return data


def project_var(project: dict[str, Any], project_file: Path) -> TargetSlots | None:
    """``skewjoin_total_slots`` from a dbt_project.yml's ``vars`` (global or scoped to the project)."""
    variables = project.get("vars") or {}
    scoped = variables.get(project.get("name")) if isinstance(variables.get(project.get("name")), dict) else {}
    for scope, where in ((scoped, f"vars: {project.get('name')}: "), (variables, "vars: ")):
        if TOTAL_SLOTS_VAR in scope:
            value = scope[TOTAL_SLOTS_VAR]
            if isinstance(value, str) and "{{" in value:
                value = _render(value)
            label = f"{where}{TOTAL_SLOTS_VAR} in {project_file}"
            return TargetSlots(_whole_number(value, label), f"var('{TOTAL_SLOTS_VAR}') of {project_file}")
    return None


def target_total_slots(
    project_dir: Path | None = None,
    profiles_dir: Path | None = None,
    profile: str | None = None,
    target: str | None = None,
) -> TargetSlots:
    """The slot count the project's models use, by the macro's own order (see the module doc).

    *profile* defaults to the project's ``profile:``; *target* to ``$DBT_TARGET``,
    then the profile's ``target:``. Raises :class:`~skewjoin.errors.DbtTargetError`
    when a named file, profile or target does not exist.
    """
    project: dict[str, Any] = {}
    if project_dir is not None:
        project_file = project_dir / "dbt_project.yml"
        project = _read_yaml(project_file)
        found = project_var(project, project_file)
        if found is not None:
            return found
    profile = profile or project.get("profile")
    if profile is None:
        raise DbtTargetError(
            "name the dbt profile: --profile NAME, or --project-dir DIR whose dbt_project.yml has `profile:`"
        )
    profiles_file = (profiles_dir or default_profiles_dir()) / "profiles.yml"
    profiles = _read_yaml(profiles_file)
    if profile not in profiles:
        known = ", ".join(sorted(str(k) for k in profiles if k != "config")) or "none"
        raise DbtTargetError(f"{profiles_file} has no profile {profile!r}; its profiles: {known}")
    rendered = _render(profiles[profile])
    outputs = rendered.get("outputs") or {}
    target = target or os.environ.get("DBT_TARGET") or rendered.get("target") or "default"
    if target not in outputs:
        raise DbtTargetError(
            f"profile {profile!r} in {profiles_file} has no target {target!r}; its targets: "
            + (", ".join(sorted(outputs)) or "none")
        )
    where = f"dbt target {target!r} of profile {profile!r} ({profiles_file})"
    parameters = outputs[target].get("server_side_parameters") or {}
    if SHUFFLE_PARTITIONS in parameters:
        value = _whole_number(parameters[SHUFFLE_PARTITIONS], f"{SHUFFLE_PARTITIONS} of {where}")
        return TargetSlots(value, f"{SHUFFLE_PARTITIONS} of {where}")
    return TargetSlots(None, f"{where} sets no {SHUFFLE_PARTITIONS} and the project no var('{TOTAL_SLOTS_VAR}')")
