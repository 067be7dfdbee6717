"""``comet site OUT_DIR``: the whole rulebook as a static, offline site.

Pages: the rules (each citation quoted in its seed line, linked to the line), one page per ruling
(sources side by side, readings, default and why, the switch, the witness deals stepped through under
both readings, the measured impact with its plots), one page per preset, the seed texts (000 and 003
side by side, line for line), and a search page over a prebuilt index.  Everything is read from the
checkout's ``spec/``, ``seeds/`` and ``comet/diverge/witnesses.json`` and computed by the model at build
time; the assets ship in this package (``comet/site/assets``), so the site opens from ``file://``.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

from comet.diverge.store import load as load_witnesses
from comet.site.core import ASSETS, SPEC_PAGES, Site
from comet.site.divergence import read_reports
from comet.site.extremes import build_extremes
from comet.site.markdown import github_slug
from comet.site.pages_dev import build_dev
from comet.site.pages_play import build_play
from comet.site.pages_players import build_compare, build_glossary, build_how_to_play, build_how_to_play_presets
from comet.site.pages_presets import build_presets
from comet.site.pages_rules import build_index, build_rules
from comet.site.pages_rulings import build_rulings
from comet.site.pages_sources import build_search, build_seeds
from comet.site.plain import is_contract, reading_labels
from comet.site.sources import RULE_FILES, RULING_FILES, read_seeds, read_spec
from comet.site.summary import measured

# ---------------------------------------------------------------------- the whole site


def locate(site: Site) -> None:
    site.labels = reading_labels(site.rulings)
    site.measured = measured(site.root / "spec" / "divergence" / "README.md")
    for f in site.rules:
        for sec in f.sections:
            page_of = "dev/contract.html" if is_contract(sec) else SPEC_PAGES[f.name]
            site.where[sec.id] = f"{page_of}#{sec.id}"
            site.slugs[f"{f.name}#{github_slug(sec.id + ': ' + sec.title)}"] = site.where[sec.id]
    for f in site.rulings:
        for sec in f.sections:
            site.where[sec.id] = f"ruling/{sec.id}.html"
            site.slugs[f"{f.name}#{github_slug(sec.id + ': ' + sec.title)}"] = site.where[sec.id]


def build_players(site: Site) -> None:
    build_how_to_play(site)
    build_how_to_play_presets(site)
    build_glossary(site)
    build_compare(site)


def steps() -> Iterator[tuple[str, Callable[[Site], None]]]:
    yield "home", build_index
    yield "rules", build_rules
    yield "rulings", build_rulings
    yield "presets", build_presets
    yield "sources", build_seeds
    yield "players", build_players
    yield "extremes", build_extremes
    yield "implementers", build_dev
    yield "play", build_play
    yield "search", build_search


def build(root: Path, out: Path, progress: Callable[[str], None] | None = None) -> Site:
    """Write the site for the checkout at ``root`` into ``out`` (emptied first if it holds an old site)."""
    spec = root / "spec"
    site = Site(
        root,
        out,
        read_spec(spec, RULE_FILES),
        read_spec(spec, RULING_FILES),
        read_seeds(root / "seeds"),
        read_reports(spec / "divergence"),
        load_witnesses(),
    )
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} is a file, not a folder")
    if out.exists():
        if not (out / "index.html").exists() and any(out.iterdir()):
            raise ValueError(f"{out} is not empty and holds no site; give an empty or new folder")
        shutil.rmtree(out)
    (out / "assets").mkdir(parents=True)
    for asset in ASSETS.iterdir():
        if asset.is_file():
            shutil.copyfile(asset, out / "assets" / asset.name)
    locate(site)
    for name, step in steps():
        if progress is not None:
            progress(name)
        step(site)
    return site
