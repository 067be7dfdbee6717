"""``comet site OUT_DIR``: build the rulebook website (static, offline) from the checkout's spec and seeds."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from comet.commands.common import reading_root

if TYPE_CHECKING:
    from http.server import ThreadingHTTPServer


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "site",
        help="build the rulebook as a static, offline website",
        description="Write the rulebook website into OUT_DIR: every rule with its sources quoted in context, "
        "a page per ruling (sources side by side, readings, default, switch, witness deals to step through, "
        "measured impact and plots), a page per preset, how to play, a glossary, pages for implementers, the "
        "seed texts and a search page. It is generated from spec/, seeds/ and the model and needs no network; "
        "it opens from file://, except play.html and check.html (the rules running in the page, Pyodide), "
        "which need a server: --serve. An existing OUT_DIR is replaced only if it holds a site.",
    )
    p.add_argument("out", type=Path, metavar="OUT_DIR", help="the folder to write (created if missing)")
    p.add_argument(
        "--root",
        type=Path,
        default=None,
        metavar="DIR",
        help="the checkout holding spec/ and seeds/ (default: this one; an installed wheel uses the copy it ships)",
    )
    p.add_argument(
        "--serve",
        action="store_true",
        help="after building, serve the site on 127.0.0.1 (the pages that run the rules need a server: "
        "WebAssembly does not load from file://); stop with Ctrl-C",
    )
    p.add_argument(
        "--port", type=int, default=8000, metavar="N", help="the port for --serve (default 8000; 0: any free one)"
    )
    p.set_defaults(run=run)


def make_server(folder: Path, port: int) -> ThreadingHTTPServer:
    """A static server of ``folder`` on 127.0.0.1 only, with the WebAssembly MIME type, quiet."""
    import functools
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        def guess_type(self, path: str | os.PathLike[str]) -> str:
            return "application/wasm" if str(path).endswith(".wasm") else super().guess_type(path)

        def log_message(self, format: str, *args: object) -> None:
            pass

    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(folder)))
    except OSError as e:
        raise ValueError(f"cannot serve on 127.0.0.1:{port}: {e.strerror or e} (try --port N)") from None


def serve(folder: Path, port: int) -> None:
    """Serve ``folder`` until interrupted."""
    with make_server(folder, port) as httpd:
        print(f"serving {folder} at http://127.0.0.1:{httpd.server_address[1]}/ (Ctrl-C stops)", flush=True)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            print("stopped")


def run(args: argparse.Namespace) -> int:
    from rich.progress import Progress

    from comet.site.build import build, steps

    root = reading_root(args.root)
    t0 = time.perf_counter()
    names = [n for n, _ in steps()]
    with Progress(transient=True) as bar:
        task = bar.add_task("building the site", total=len(names))

        def tick(name: str) -> None:
            bar.update(task, advance=1, description=f"site: {name}")

        try:
            site = build(root, args.out, tick)
        except OSError as e:
            raise ValueError(f"cannot write the site to {args.out}: {e.strerror or e}") from None
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(
        f"comet site: {site.pages} pages, {size / 1e6:.1f} MB in {args.out} "
        f"({time.perf_counter() - t0:.1f} s); open {args.out / 'index.html'}"
    )
    if args.serve:
        serve(args.out, args.port)
    return 0
