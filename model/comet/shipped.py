"""The checkout's texts that reading commands need, shipped inside the package.

``comet site`` and the listings (``comet rules``, ``comet rulings``) read ``spec/`` and ``seeds/``.  A clone
has them; an installed wheel has no checkout, so the wheel carries a copy of the files they read in
``comet/checkout/`` (written by ``setup.py``'s build step with ``ship``, never by hand, and never in an
editable install, which reads the clone itself).  ``shipped_root`` finds that copy.
"""

from __future__ import annotations

import shutil
from pathlib import Path

# What is copied, as globs from the checkout's top folder: the seed texts, the spec's documents and schemas,
# and the divergence report's pages and plots (not its raw results, which no reading command opens).
SHIPPED = (
    "seeds/*",
    "spec/*.md",
    "spec/*.svg",
    "spec/schemas/*.json",
    "spec/divergence/**/*.md",
    "spec/divergence/**/*.png",
)
FOLDER = "checkout"


def ship(root: Path, dest: Path) -> list[Path]:
    """Copy the files of ``SHIPPED`` from the checkout ``root`` into ``dest`` (same relative paths); the files
    copied, relative.  A plain error if ``root`` holds no spec/ and seeds/ (nothing would be shipped)."""
    if not (root / "spec").is_dir() or not (root / "seeds").is_dir():
        raise ValueError(f"{root} holds no spec/ and seeds/ to ship with the package")
    copied: list[Path] = []
    for pattern in SHIPPED:
        for src in sorted(root.glob(pattern)):
            if src.is_file():
                rel = src.relative_to(root)
                (dest / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dest / rel)
                copied.append(rel)
    return copied


def shipped_root() -> Path | None:
    """The copy of spec/ and seeds/ this package was installed with (a wheel), or None (a clone, an editable
    install, or a package built without it)."""
    here = Path(__file__).with_name(FOLDER)
    return here if (here / "spec").is_dir() and (here / "seeds").is_dir() else None
