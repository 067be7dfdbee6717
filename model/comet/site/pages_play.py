"""The rules running in the page: ``play.html`` (play a deal against the model's players, every move
checked by the model) and ``check.html`` (paste a record, get ``comet replay``'s verdict).

The model's core (standard library only) is packed into ``assets/comet-core.zip`` and run by Pyodide,
copied from the npm package ``pyodide`` into ``assets/pyodide/`` (no network at run time).  WebAssembly
does not load from ``file://``: ``comet site OUT --serve`` serves the site on 127.0.0.1.  Without the npm
package the pages are still built and say how to get it.
"""

from __future__ import annotations

import os
import shutil
import zipfile
from pathlib import Path

import comet
from comet.presets import PRESETS
from comet.ruleset import RULING_FIELDS, RULING_OF, field_readings
from comet.site.core import Site, _val
from comet.site.html import esc, json_script, page
from comet.site.plain import label, reading_labels
from comet.variant import applies

PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
#: The parts of ``comet`` the page loads: the core (top-level modules, games, checks), the records (replay)
#: and the bridge.  ``tests/test_site.py`` keeps every one importable with the standard library alone.
CORE_PARTS = ("games", "checks", "records")
NOT_IN_CORE = frozenset({"cli.py", "__main__.py", "itf.py"})
EXTRA_FILES = ("site/__init__.py", "site/webbridge.py")
ZIP_DATE = (2020, 1, 1, 0, 0, 0)


def pyodide_dir(root: Path) -> Path | None:
    """The npm package ``pyodide``: $COMET_PYODIDE_DIR, the checkout's node_modules, or CI's npm cache."""
    env = os.environ.get("COMET_PYODIDE_DIR")
    cache = (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "comet-ci"
        / "npm"
        / "node_modules"
        / "pyodide"
    )
    for d in ([Path(env)] if env else []) + [root / "node_modules" / "pyodide", cache]:
        if all((d / f).is_file() for f in PYODIDE_FILES):
            return d
    return None


def core_files() -> list[tuple[str, Path]]:
    """(name inside the zip, file) for every module the page loads."""
    pkg = Path(comet.__file__).parent
    out = [(f"comet/{p.name}", p) for p in sorted(pkg.glob("*.py")) if p.name not in NOT_IN_CORE]
    for part in CORE_PARTS:
        out += [
            (f"comet/{p.relative_to(pkg).as_posix()}", p)
            for p in sorted((pkg / part).rglob("*.py"))
            if p.name not in NOT_IN_CORE and "__pycache__" not in p.parts
        ]
    out += [(f"comet/{rel}", pkg / rel) for rel in EXTRA_FILES]
    return out


def write_core_zip(dest: Path) -> None:
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for name, path in core_files():
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())


def rulings_offer(site: Site) -> dict[str, list[dict[str, object]]]:
    """Per preset: each ruling that applies, its readings in words (the preset's default first)."""
    labels = reading_labels(site.rulings)
    out: dict[str, list[dict[str, object]]] = {}
    for name, pr in PRESETS.items():
        rows: list[dict[str, object]] = []
        for f in RULING_FIELDS:
            try:
                if not applies(f, pr.rules.variant):
                    continue
            except KeyError:
                continue
            readings = field_readings(f)
            if readings is None:
                continue
            mine = getattr(pr.rules, f)
            opts = [mine] + [r for r in readings if r != mine]
            rid = RULING_OF.get(f, "")
            rows.append(
                {
                    "field": f,
                    "ruling": rid,
                    "url": site.where.get(rid, ""),
                    "readings": [{"value": o, "label": label(labels, f, o), "code": _val(o)} for o in opts],
                }
            )
        out[name] = rows
    return out


NEEDS = """<div class="needs-server" id="needs" hidden><p>The rules run in this page with Pyodide (Python
compiled to WebAssembly), which a browser loads only from a web server, not from a file. Serve the site
with <code>comet site OUT_DIR --serve</code> (or any static server) and open it from there.</p></div>"""


def build_play(site: Site) -> None:
    found = pyodide_dir(site.root)
    ready = found is not None
    if found is not None:
        dest = site.out / "assets" / "pyodide"
        dest.mkdir(parents=True, exist_ok=True)
        for f in PYODIDE_FILES:
            shutil.copyfile(found / f, dest / f)
        write_core_zip(site.out / "assets" / "comet-core.zip")
    missing = (
        ""
        if ready
        else '<p class="needs-server">This copy of the site was built without the npm package <code>pyodide</code>, so '
        "the rules cannot run in the page. Install it (<code>npm install --prefix ~/.cache/comet-ci/npm pyodide@0.27</code>, "
        "or set <code>COMET_PYODIDE_DIR</code>) and build the site again.</p>"
    )
    head = json_script("offer", rulings_offer(site))
    options = "".join(
        f'<option value="{esc(n)}"{" selected" if n == "standard" else ""}>{esc(n)}: {esc(PRESETS[n].description)}</option>'
        for n in sorted(PRESETS, key=lambda n: (n != "standard", n))
    )
    body = f"""<h1>Play a deal</h1>
<p class="lead">You are Anna, against the model's simple players (they play natural cards first and the Comet only
when stuck). Every move is checked by the rules: the legal moves are offered, and a card you may not play is
refused with the rule it breaks. New to the game? Read <a href="how-to-play.html">how to play</a> first.</p>
{missing}{NEEDS}
<form class="play-setup" id="setup">
<p><label for="preset">Game</label><br><select id="preset" name="preset">{options}</select></p>
<p><label for="players">Players</label> <select id="players" name="players"></select>
<label for="seed">Deal number</label> <input id="seed" name="seed" type="number" min="1" value="1" size="6"></p>
<details id="readings-box"><summary>Readings of the rulings (the preset's own first)</summary><div id="readings"></div></details>
<p><button type="submit" id="start" disabled>Deal</button> <span id="loading" role="status" aria-live="polite">Loading the rules…</span></p>
</form>
<p id="witness-note"></p>
<section class="play" id="table" aria-label="The deal" hidden>
<div class="table-state" id="state" role="status" aria-live="polite"></div>
<p id="refused" class="refused" role="alert"></p>
<h2>Your hand</h2><p>Click a card to play it.</p><div class="hand" id="hand"></div>
<h2>Your legal moves</h2><div id="legal"></div>
<h2>What happened</h2><ol class="log" id="log"></ol>
<div id="result"></div>
</section>"""
    site.write("play.html", page("Play a deal", body, "", "play.html", head=head, scripts=("assets/play.js",)))
    check = f"""<h1>Check a record</h1>
<p class="lead">Paste a deal record or a game record (the JSON of <a href="dev/record.html">the record format</a>) and get
the verdict <code>comet replay</code> gives: the final state and payments, or the first illegal action with the rule
it breaks, or what is malformed. The model runs in this page; nothing is sent anywhere.</p>
{missing}{NEEDS}
<form id="check">
<p><label for="record">The record (JSON)</label><br><textarea id="record" rows="12" spellcheck="false"></textarea></p>
<p><button type="submit" id="run" disabled>Check</button> <span id="loading" role="status" aria-live="polite">Loading the rules…</span></p>
</form>
<section aria-labelledby="verdict-h"><h2 id="verdict-h">Verdict</h2>
<p id="verdict" class="verdict" role="status" aria-live="polite"></p><pre id="output"></pre></section>"""
    site.write("check.html", page("Check a record", check, "", "implementers.html", scripts=("assets/play.js",)))
