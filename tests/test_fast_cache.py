"""The fast engine's compiled kernels are cached per version of all its sources (``comet.fast.jit``), so a
change to a file whose functions a kernel inlines compiles the kernel afresh (Numba's own check looks only
at the file the kernel is defined in).  Rules: none directly; the fast engine's correctness against the
reference (R-PLAY-NEXT and the rest) depends on never running a stale kernel."""

from __future__ import annotations

from pathlib import Path

from comet.fast.jit import cache_dir_for


def test_the_cache_folder_changes_with_any_source_file(tmp_path: Path) -> None:
    src = tmp_path / "fast"
    (src / "games").mkdir(parents=True)
    (src / "policies.py").write_text("X = 1\n")
    (src / "games" / "commit.py").write_text("Y = 2\n")
    base = tmp_path / "cache"
    first = cache_dir_for(src, base)
    assert first.parent == base and cache_dir_for(src, base) == first
    (src / "policies.py").write_text("X = 2\n")  # an inlined helper changes, the kernel's own file does not
    second = cache_dir_for(src, base)
    assert second != first
    (src / "games" / "commit.py").rename(src / "games" / "cats.py")  # a file renamed counts too
    assert cache_dir_for(src, base) not in (first, second)


def test_compiled_kernels_are_cached_in_the_versioned_folder() -> None:
    """A function compiled by ``jit`` writes its cache index under the folder for the engine's sources."""
    import numba
    from comet import fast
    from comet.fast.jit import jit

    folder = Path(str(getattr(numba.config, "CACHE_DIR", "")))
    here = Path(fast.__file__).resolve().parent
    assert folder.name == cache_dir_for(here, folder.parent).name

    @jit
    def twice(x: int) -> int:
        return 2 * x

    assert twice(21) == 42
    assert any("twice" in p.name for p in folder.rglob("*.nbi")), f"no cache index for 'twice' under {folder}"
