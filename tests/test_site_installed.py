"""`comet site` from an installed package, not a clone (issue 35 item 6): the wheel ships the texts the site
reads (comet.shipped, written by setup.py's build step), and the site built from them is the site built from
the clone, file for file.  Without a clone and without the shipped copy, the error says how to get one."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from comet.commands import common
from comet.shipped import SHIPPED, ship
from comet.site.build import build

ROOT = Path(__file__).resolve().parent.parent


def _differences(a: Path, b: Path) -> list[str]:
    """The files present in one site and not the other, or different in content (relative paths)."""
    files_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    files_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    out = sorted(str(p) for p in files_a ^ files_b)
    out += sorted(str(p) for p in files_a & files_b if not filecmp.cmp(a / p, b / p, shallow=False))
    return out


def test_the_shipped_texts_build_the_same_site(built_site: Path, tmp_path: Path) -> None:
    """The copy ``ship`` makes (what the wheel carries) builds the clone's site, file for file."""
    copied = ship(ROOT, tmp_path / "copy")
    assert {p.parts[0] for p in copied} == {"seeds", "spec"}, copied[:5]
    build(tmp_path / "copy", tmp_path / "out")
    diff = _differences(built_site, tmp_path / "out")
    assert not diff, f"the site built from the shipped texts differs from the clone's in {len(diff)} files: {diff[:5]}"


def test_a_text_left_out_of_the_wheel_is_caught(
    built_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Planted: a wheel that leaves out the divergence report's plots builds a different site, and the check
    above names the missing files."""
    import comet.shipped

    monkeypatch.setattr(comet.shipped, "SHIPPED", tuple(g for g in SHIPPED if not g.endswith(".png")))
    comet.shipped.ship(ROOT, tmp_path / "copy")
    build(tmp_path / "copy", tmp_path / "out")
    diff = _differences(built_site, tmp_path / "out")
    assert any(d.endswith(".png") for d in diff), diff[:5]


def test_reading_root_falls_back_to_the_shipped_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No clone found: the shipped copy is used; neither: one line saying how (build the wheel, or --root)."""
    import comet.shipped

    def no_clone(explicit: Path | None = None) -> Path:
        raise ValueError("no checkout with spec/ and seeds/ found")

    monkeypatch.setattr(common, "checkout_root", no_clone)
    ship(ROOT, tmp_path / "copy")
    monkeypatch.setattr(comet.shipped, "shipped_root", lambda: tmp_path / "copy")
    assert common.reading_root() == tmp_path / "copy"
    monkeypatch.setattr(comet.shipped, "shipped_root", lambda: None)
    with pytest.raises(ValueError, match=r"python -m build.*--root CLONE"):
        common.reading_root()


def _source_copy(dest: Path) -> None:
    """What a clone holds that the wheel is built from (without vectors/ and the raw results)."""
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copyfile(ROOT / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".mypy_cache")
    for name in ("model", "proofs"):
        shutil.copytree(ROOT / name, dest / name, ignore=ignore)
    ship(ROOT, dest)


def test_comet_site_runs_from_a_built_wheel(built_site: Path, tmp_path: Path) -> None:
    """Build the wheel (``python -m build --wheel``), unpack it as an installer would into site-packages, and
    run ``comet site`` from a folder outside any clone: it builds the clone's site, file for file."""
    # ``build.__main__``: a clone's setuptools ``build/`` folder would otherwise pass for the package
    pytest.importorskip("build.__main__", reason="the wheel test needs the 'build' package (pip install build)")
    src = tmp_path / "src"
    src.mkdir()
    _source_copy(src)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(src)],
        capture_output=True,
        text=True,
        timeout=500,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        z.extractall(tmp_path / "installed")
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "installed")}
    script = (
        "import sys, comet; from comet.cli import main; "
        "print('FROM', comet.__file__); sys.exit(main(['site', sys.argv[1]]))"
    )
    run = subprocess.run(
        [sys.executable, "-c", script, str(away / "out")],
        cwd=away,
        env=env,
        capture_output=True,
        text=True,
        timeout=500,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert f"FROM {tmp_path / 'installed'}" in run.stdout, run.stdout
    diff = _differences(built_site, away / "out")
    assert not diff, f"the installed package's site differs from the clone's in {len(diff)} files: {diff[:5]}"
