"""The implementation under test: a command spoken to in JSON lines, with a timeout on every answer."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from comet.records.deal_record import JsonObject


@dataclass(frozen=True, slots=True)
class Answer:
    """One response (None when there was none) and, if something went wrong, what: ``timeout``,
    ``crash`` or ``garbled`` (a line that is not a JSON object)."""

    response: JsonObject | None
    problem: str | None = None
    detail: str = ""


class Implementation:
    """The command, started on first use and restarted after a crash or a timeout."""

    def __init__(self, command: Sequence[str], timeout: float = 10.0, startup: float = 10.0) -> None:
        self.command = list(command)
        self.timeout = timeout
        #: Extra seconds for the first answer after a (re)start: an interpreter starting on a loaded
        #: machine is not the implementation being slow.
        self.startup = startup
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.restarts = 0

    def _start(self) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        lines: queue.Queue[str | None] = queue.Queue()
        out = proc.stdout
        assert out is not None

        def read() -> None:
            for line in out:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        self.proc, self.lines = proc, lines
        return proc

    def _stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            self.restarts += 1

    def close(self) -> None:
        if self.proc is not None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def ask(self, request: JsonObject) -> Answer:
        """Send one request, wait at most ``timeout`` seconds for its line (``startup`` more if the command
        had to be started for it)."""
        proc = self.proc if self.proc is not None and self.proc.poll() is None else None
        wait = self.timeout
        if proc is None:
            wait += self.startup
            if self.proc is not None:
                self._stop()
            try:
                proc = self._start()
            except OSError as e:
                return Answer(None, "crash", f"cannot start {self.command[0]}: {e}")
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
            proc.stdin.flush()
        except OSError as e:
            self._stop()
            return Answer(None, "crash", f"the implementation stopped reading: {e}")
        try:
            line = self.lines.get(timeout=wait)
        except queue.Empty:
            self._stop()
            return Answer(None, "timeout", f"no answer within {wait:g} s")
        if line is None:
            code = proc.wait()
            self._stop()
            return Answer(None, "crash", f"the implementation exited (code {code}) without answering")
        try:
            value = json.loads(line)
        except ValueError:
            return Answer(None, "garbled", f"not a JSON line: {line[:80]!r}")
        if not isinstance(value, dict):
            return Answer(None, "garbled", f"not a JSON object: {line[:80]!r}")
        return Answer(value)
