"""``cardkit preview``: a local page that shows every face of a set and redraws
what a saved change touches.

:class:`Preview` holds, per locale, the last good picture of every distinct
face (PNG bytes and a digest of what was drawn) and the problems of the last
rebuild, each in the CLI's one-line form.  :meth:`Preview.rebuild` reloads the
project (the loader is fast enough to run whole), composes the set's faces and
rasterizes only the faces whose drawing changed: one card's text edited in a
128-card set redraws that card.  While a file is broken the last good pictures
stay and the page shows the errors; fixing the file clears them.

:class:`PreviewServer` serves the page on ``127.0.0.1`` (a free port unless
one is asked for): ``/`` the page, ``/state`` the faces and problems as JSON
(long-polled: it answers when the version moves past ``since``, so a browser
that reconnects simply asks again), ``/face/<locale>/<id>`` a PNG.  A thread
watches the project's ``cards/`` and ``locales/`` (watchfiles) and rebuilds on
every saved change.  Every card and catalog text reaches the page through
``textContent`` and attribute setters, never as markup.
"""

from __future__ import annotations

import hashlib
import json
import queue
import selectors
import socket
import threading
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Literal

from cardkit.errors import CardkitError, Issue, Severity, sort_issues

Side = Literal["front", "back"]
POLL_SECONDS = 20.0  # a long poll answers at the latest after this long
DEFAULT_DPI = 110


@dataclass(frozen=True)
class FaceImage:
    id: str
    card: str
    side: Side
    digest: str
    png: bytes = field(repr=False)


@dataclass
class LocaleView:
    """What the page shows for one locale: the last good faces, in print order,
    and the problems of the last rebuild."""

    locale: str
    faces: dict[str, FaceImage] = field(default_factory=dict)
    issues: list[str] = field(default_factory=list)
    broken: bool = False
    drawn: int = 0  # faces rasterized by the last rebuild (the rest were unchanged)


def _walk(ops: Iterable[Any], out: Any, icons: list[bool]) -> None:
    from cardkit.layout.ops import Group, Icon, Picture

    for op in ops:
        if isinstance(op, Group):
            out.update(f"G{op.dx},{op.dy},{op.rotate}(".encode())
            _walk(op.ops, out, icons)
            out.update(b")")
            continue
        out.update(repr(op).encode())
        if isinstance(op, Picture):
            out.update(hashlib.sha1(op.png).digest())
        elif isinstance(op, Icon):
            icons[0] = True


def face_digest(face: Any, icon_salt: bytes) -> str:
    """What a face draws, as a digest: equal digests draw equal pictures (its
    template size, bleed colour, every operation, the bytes of its pictures and,
    when it draws icons, the set's icon files)."""
    h = hashlib.sha1()
    t = face.template
    h.update(f"{t.width}x{t.height}:{face.bleed_colour}".encode())
    icons = [False]
    _walk(face.ops, h, icons)
    if icons[0]:
        h.update(icon_salt)
    return h.hexdigest()[:16]


def _icon_salt(root: Path, set_dir: str) -> bytes:
    h = hashlib.sha1()
    folder = root / set_dir / "icons"
    if folder.is_dir():
        for p in sorted(folder.glob("*.svg"))[:500]:
            try:
                h.update(p.name.encode() + b"\0" + p.read_bytes())
            except OSError:
                continue
    return h.digest()


class Preview:
    """The faces of one set, rebuilt on demand; thread-safe."""

    def __init__(self, root: Path, set_id: str | None, dpi: int = DEFAULT_DPI) -> None:
        from cardkit.load.yamlsafe import remember_parses

        remember_parses()  # an edit reparses (and rechecks) the file that changed, not the project
        self.root = Path(root)
        self.set_id = set_id
        self.dpi = dpi
        self.views: dict[str, LocaleView] = {}
        self.version = 0
        self.last_rebuild_ms = 0.0  # wall time of the last rebuild (bench/bench_preview.py prints it)
        self.changed = threading.Condition()
        self._lock = threading.Lock()

    def locales(self) -> list[str]:
        from cardkit.i18n.catalogs import project_locales

        try:
            return ["en", *[loc for loc in project_locales(self.root) if loc != "en"]]
        except OSError:
            return ["en"]

    def view(self, locale: str) -> LocaleView:
        """The view of ``locale``, built on first use."""
        with self._lock:
            known = locale in self.views
        if not known:
            self.rebuild([locale])
        return self.views[locale]

    def rebuild(self, locales: list[str] | None = None) -> None:
        """Reload the project and redraw the faces that changed, in every locale
        the page has asked for (or ``locales``)."""
        start = time.perf_counter()
        with self._lock:
            wanted = locales or sorted(self.views) or ["en"]
            problems, card_set = self._load()
            for locale in wanted:
                view = self.views.setdefault(locale, LocaleView(locale))
                self._refresh(view, card_set, problems)
            self.last_rebuild_ms = (time.perf_counter() - start) * 1000
        with self.changed:
            self.version += 1
            self.changed.notify_all()

    def _load(self) -> tuple[list[Issue], Any]:
        from cardkit.load.project import load_project

        if not (self.root / "cards").is_dir():
            return [Issue("H002", f"the project folder {self.root} has no cards/ folder (moved or renamed?); "
                                  "the last good faces are shown")], None
        try:
            project = load_project(self.root)
        except CardkitError as exc:
            return exc.issues, None
        except Exception as exc:  # noqa: BLE001 - the page must live through anything a half-saved file does
            return [Issue("H001", f"the faces could not be rebuilt: {type(exc).__name__}: {exc}")], None
        set_id = self.set_id or (min(project.sets) if project.sets else None)
        problems = list(project.issues)
        loaded = project.sets.get(set_id) if set_id else None
        if loaded is None or loaded.set is None:
            if not any(i.severity is Severity.ERROR for i in problems):
                known = ", ".join(sorted(project.sets)) or "none"
                problems.append(Issue("P002", f"no card set '{set_id}' in {self.root} (sets: {known})"))
            return problems, None
        self.set_id = set_id
        return problems, loaded

    def _refresh(self, view: LocaleView, loaded: Any, problems: list[Issue]) -> None:
        from cardkit.layout.compose import bad_fits
        from cardkit.printing import compose_set, face_pdf, fit_issues
        from cardkit.render.images import png_bytes, rasterize

        issues = list(problems)
        view.drawn = 0
        errors = any(i.severity is Severity.ERROR for i in issues)
        if loaded is not None and not errors:
            try:
                card_set = loaded.set
                items, extras = compose_set(self.root, card_set, view.locale)
                salt = _icon_salt(self.root, card_set.directory)
                faces: dict[str, FaceImage] = {}
                all_faces = []
                for item in items + extras:
                    for side, face in (("front", item.front), ("back", item.back)):
                        if face is None or face.id in faces:
                            continue
                        all_faces.append(face)
                        digest = face_digest(face, salt)
                        old = view.faces.get(face.id)
                        if old is not None and old.digest == digest:
                            faces[face.id] = old
                            continue
                        png = png_bytes(rasterize(face_pdf(face, 0), self.dpi / 72))
                        faces[face.id] = FaceImage(face.id, face.card, side, digest, png)  # type: ignore[arg-type]
                        view.drawn += 1
                view.faces = faces
                issues.extend(fit_issues(self.root, card_set, view.locale, bad_fits(all_faces)))
            except CardkitError as exc:
                issues.extend(exc.issues)
            except Exception as exc:  # noqa: BLE001 - a face file half-written, an image being replaced
                issues.append(Issue("H001", f"the faces could not be rebuilt: {type(exc).__name__}: {exc}"))
        view.issues = [i.format() for i in sort_issues(issues)]
        view.broken = any(i.severity is Severity.ERROR for i in issues)

    def state(self, locale: str) -> dict[str, Any]:
        view = self.view(locale)
        q = urllib.parse.quote
        return {
            "version": self.version, "locale": locale, "locales": self.locales(), "set": self.set_id or "",
            "broken": view.broken, "issues": view.issues, "drawn": view.drawn,
            "faces": [{"id": f.id, "card": f.card, "side": f.side, "digest": f.digest,
                       "src": f"/face/{q(locale)}/{q(f.id, safe='')}?d={f.digest}"} for f in view.faces.values()],
        }

    def wait(self, since: int, timeout: float = POLL_SECONDS) -> None:
        """Block until the version passes ``since`` (or ``timeout``)."""
        end = time.monotonic() + timeout
        with self.changed:
            while self.version <= since:
                left = end - time.monotonic()
                if left <= 0:
                    return
                self.changed.wait(left)

    def png(self, locale: str, face_id: str) -> bytes | None:
        view = self.views.get(locale)
        face = view.faces.get(face_id) if view else None
        return face.png if face else None


# ------------------------------------------------------------------ watching

def _relevant(root: Path):  # -> watchfiles filter
    cards, locales = (root / "cards").resolve(), (root / "locales").resolve()

    def keep(change: Any, path: str) -> bool:
        p = Path(path)
        name = p.name
        if name.startswith(".") or name.endswith(("~", ".tmp", ".swp")):
            return False  # editors' and cardkit's own temporary files
        return p.is_relative_to(cards) or p.is_relative_to(locales) or p == cards or p == locales

    return keep


BROKEN_RETRY = 2.0  # seconds between rebuilds of a broken project with no change seen
MAX_WATCHED_FOLDERS = 2000  # folders of cards/ and locales/ watched; a project with more is watched in part


def watched_folders(root: Path) -> list[Path]:
    """``cards/``, ``locales/`` and every folder under them that is really in
    the project: walked without following links, so a symlinked folder
    (``art/library -> /usr/share``) is neither entered nor watched, and a
    ``cards/`` that is itself a link out is not watched at all (the loader
    refuses its files, F004).  Hidden folders are skipped; at most
    :data:`MAX_WATCHED_FOLDERS`."""
    import os

    real_root = os.path.realpath(root)
    out: list[Path] = []
    for top in (root / "cards", root / "locales"):
        real = os.path.realpath(top)
        if not top.is_dir() or not (real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)):
            continue
        for folder, subfolders, _ in os.walk(top, followlinks=False):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            out.append(Path(folder))
            if len(out) >= MAX_WATCHED_FOLDERS:
                return out
    return out


def watch(preview: Preview, stop: threading.Event) -> None:
    """Rebuild on every saved change under ``cards/`` or ``locales/`` until
    ``stop``.  Each folder of :func:`watched_folders` is watched on its own (not
    recursively: the watcher never follows a link out of the project); the
    folders are walked again twice a second and the watch renewed when they
    change.  A folder that disappears (renamed, moved) is shown as a problem
    and looked for again twice a second."""
    import watchfiles

    root = preview.root
    while not stop.is_set():
        if not (root / "cards").is_dir():
            preview.rebuild()
            while not stop.is_set() and not (root / "cards").is_dir():
                stop.wait(0.5)
            preview.rebuild()
            continue
        folders = watched_folders(root)
        if not folders:
            stop.wait(0.5)
            continue
        retry_at = time.monotonic() + BROKEN_RETRY
        built: list[Path] | None = folders  # the folders as they were around the last rebuild (None: they moved during it)
        try:
            for changes in watchfiles.watch(*folders, watch_filter=_relevant(root.resolve()), stop_event=stop,
                                            debounce=400, step=30, rust_timeout=500, yield_on_timeout=True,
                                            raise_interrupt=False, recursive=False):
                now = watched_folders(root)
                retry = time.monotonic() >= retry_at and any(v.broken for v in list(preview.views.values()))
                if changes or now != built or retry:  # (retry: a broken project is looked at again every
                    # BROKEN_RETRY seconds, so a fix whose change the watcher missed still shows)
                    retry_at = time.monotonic() + BROKEN_RETRY
                    # a folder renamed away and back between two looks leaves no change inside the folders
                    # watched: the listing before and after the rebuild tells, and a rebuild that raced a
                    # move is done again at the next look
                    preview.rebuild()
                    after = watched_folders(root)
                    built = now if after == now else None
                if now != folders:
                    break  # watch what is there now
        except (OSError, RuntimeError):  # a watched folder went away under the watcher
            stop.wait(0.2)
            preview.rebuild()


# ------------------------------------------------------------------ serving

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cardkit preview</title>
<style>
body{font:14px system-ui,sans-serif;margin:0;background:#f4f2ee;color:#222}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.5em 1em;display:flex;gap:1em;align-items:center;flex-wrap:wrap;z-index:2}
#status{font-weight:bold}#status.broken{color:#b00}#status.ok{color:#070}
#issues{margin:0;padding:.3em 1em .3em 2em;font:12px ui-monospace,monospace;background:#fff6f6;border-bottom:1px solid #e6c0c0}
#issues:empty{display:none}#issues li.warning{color:#850}#issues li.error{color:#a00}
#faces{display:flex;flex-wrap:wrap;gap:12px;padding:12px}
figure{margin:0;background:#fff;padding:4px;box-shadow:0 1px 3px #0003;cursor:zoom-in}
figure img{display:block;width:var(--w,180px);height:auto}
figcaption{font-size:11px;color:#555;max-width:var(--w,180px);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
body[data-side=front] figure[data-side=back],body[data-side=back] figure[data-side=front]{display:none}
#zoom{position:fixed;inset:0;background:#000c;display:none;align-items:center;justify-content:center;z-index:3;cursor:zoom-out}
#zoom.on{display:flex}#zoom img{max-width:95vw;max-height:95vh;background:#fff}
</style></head>
<body data-side="all">
<header><strong>cardkit preview</strong> <span id="set"></span>
<label>locale <select id="locale"></select></label>
<label>show <select id="side"><option value="all">front and back</option><option value="front">fronts</option><option value="back">backs</option></select></label>
<label>size <input id="size" type="range" min="100" max="400" value="180"></label>
<span id="status">connecting</span></header>
<ul id="issues"></ul>
<main id="faces"></main>
<div id="zoom"><img alt=""></div>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
let locale = new URLSearchParams(location.search).get("locale") || "en";
let since = -1, ctrl = null;
const figures = new Map();
function status(text, cls){ const s = $("status"); s.textContent = text; s.className = cls || ""; }
function render(s){
  $("set").textContent = s.set;
  const sel = $("locale");
  if (sel.options.length !== s.locales.length) {
    sel.replaceChildren(...s.locales.map(l => { const o = document.createElement("option"); o.value = l; o.textContent = l; return o; }));
  }
  sel.value = locale;
  $("issues").replaceChildren(...s.issues.map(line => {
    const li = document.createElement("li"); li.textContent = line;
    li.className = line.includes(": warning[") ? "warning" : "error"; return li; }));
  status(s.broken ? "broken: showing the last good faces" : "ok", s.broken ? "broken" : "ok");
  const main = $("faces"), seen = new Set();
  for (const f of s.faces) {
    seen.add(f.id);
    let fig = figures.get(f.id);
    if (!fig) {
      fig = document.createElement("figure");
      const img = document.createElement("img"), cap = document.createElement("figcaption");
      img.alt = f.id; cap.textContent = f.id; fig.append(img, cap); figures.set(f.id, fig);
      fig.addEventListener("click", () => { const z = $("zoom"); z.querySelector("img").src = img.src; z.classList.add("on"); });
    }
    fig.dataset.id = f.id; fig.dataset.card = f.card; fig.dataset.side = f.side;
    const img = fig.querySelector("img");
    if (fig.dataset.digest !== f.digest) { img.src = f.src; fig.dataset.digest = f.digest; }
    main.append(fig);
  }
  for (const [id, fig] of figures) if (!seen.has(id)) { fig.remove(); figures.delete(id); }
  document.body.dataset.version = String(s.version);
}
async function loop(){
  for (;;) {
    const mine = locale;
    ctrl = new AbortController();
    try {
      const r = await fetch(`/state?locale=${encodeURIComponent(mine)}&since=${since}`, {signal: ctrl.signal, cache: "no-store"});
      if (!r.ok) throw new Error(String(r.status));
      const s = await r.json();
      if (mine !== locale) continue;
      since = s.version; render(s);
    } catch (e) {
      if (e.name === "AbortError") continue;
      status("reconnecting", "broken");
      await new Promise(ok => setTimeout(ok, 1000));
    }
  }
}
$("locale").addEventListener("change", (e) => {
  locale = e.target.value; since = -1;
  for (const fig of figures.values()) fig.remove(); figures.clear();
  history.replaceState(null, "", `?locale=${encodeURIComponent(locale)}`);
  if (ctrl) ctrl.abort();
});
$("side").addEventListener("change", (e) => { document.body.dataset.side = e.target.value; });
$("size").addEventListener("input", (e) => { document.body.style.setProperty("--w", `${e.target.value}px`); });
$("zoom").addEventListener("click", () => $("zoom").classList.remove("on"));
loop();
</script></body></html>
"""


class _Handler(BaseHTTPRequestHandler):
    server: PreviewServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the address only
        return

    def _send(self, status: HTTPStatus, body: bytes, ctype: str) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)
        except (ConnectionError, TimeoutError):
            pass  # the browser went away (reloaded, closed): it asks again when it comes back

    def do_GET(self) -> None:
        port = self.server.server_address[1]
        if self.headers.get("Host") not in (f"127.0.0.1:{port}", f"localhost:{port}"):
            # another name resolving to this machine (DNS rebinding) gets nothing of the project
            self._send(HTTPStatus.FORBIDDEN, b"forbidden", "text/plain; charset=utf-8")
            return
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        preview = self.server.preview
        if url.path == "/":
            self._send(HTTPStatus.OK, PAGE.encode("utf-8"), "text/html; charset=utf-8")
            return
        if url.path == "/state":
            locale = query.get("locale", ["en"])[0]
            if locale not in preview.locales():
                self._send(HTTPStatus.NOT_FOUND, b'{"error": "unknown locale"}', "application/json")
                return
            try:
                since = int(query.get("since", ["-1"])[0])
            except ValueError:
                since = -1
            view_known = locale in preview.views
            if view_known:
                preview.wait(since, self.server.poll)
            body = json.dumps(preview.state(locale), ensure_ascii=False).encode("utf-8")
            self._send(HTTPStatus.OK, body, "application/json; charset=utf-8")
            return
        parts = url.path.split("/")
        if len(parts) == 4 and parts[1] == "face":
            png = preview.png(urllib.parse.unquote(parts[2]), urllib.parse.unquote(parts[3]))
            if png is not None:
                self._send(HTTPStatus.OK, png, "image/png")
                return
        self._send(HTTPStatus.NOT_FOUND, b"not found", "text/plain; charset=utf-8")


MAX_REQUESTS = 32  # requests answered at once, each in its own thread (a page holds one long poll and a few images)
MAX_WAITING = 256  # connections accepted that have not sent a byte yet; past it the oldest is closed
IDLE_SECONDS = 10.0  # a connection that sends nothing (or stalls mid-request) this long is closed
_BUSY = b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


class PreviewServer(ThreadingHTTPServer):
    """The page of a :class:`Preview` on ``127.0.0.1`` and the watcher behind it.

    Its resources are bounded whatever connects: an accepted connection waits,
    without a thread, in one selector until it sends its request (closed after
    ``idle`` seconds of silence, the oldest closed past :data:`MAX_WAITING`);
    at most :data:`MAX_REQUESTS` requests are answered at once (the rest get
    503, which the page retries), and a request that stalls mid-way times out
    after ``idle`` seconds.  So 300 silent sockets hold no thread, and the
    page is still served beside them."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(self, preview: Preview, port: int = 0, poll: float = POLL_SECONDS, idle: float = IDLE_SECONDS) -> None:
        try:
            super().__init__(("127.0.0.1", port), _Handler)
        except (OSError, OverflowError) as exc:  # (a port in use, or not a port at all)
            raise CardkitError(f"cannot serve the preview on 127.0.0.1:{port}: {getattr(exc, 'strerror', None) or exc}",
                               code="H003") from None
        self.preview = preview
        self.poll = poll
        self.idle = idle
        self.stop = threading.Event()
        self._workers: list[threading.Thread] = []
        self._slots = threading.BoundedSemaphore(MAX_REQUESTS)
        self._arrived: queue.SimpleQueue[tuple[socket.socket, Any]] = queue.SimpleQueue()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_w.setblocking(False)

    def process_request(self, request: Any, client_address: Any) -> None:
        """(The accepting thread) hand the connection to the gate; no thread of its own yet."""
        self._arrived.put((request, client_address))
        try:
            self._wake_w.send(b"\0")
        except (BlockingIOError, OSError):
            pass  # the gate is already awake

    def _gate(self) -> None:
        """Keep the waiting connections in one selector; start a request's thread
        when its first bytes arrive, close the silent ones."""
        waiting: dict[socket.socket, tuple[Any, float]] = {}
        with selectors.DefaultSelector() as sel:
            sel.register(self._wake_r, selectors.EVENT_READ)
            while not self.stop.is_set():
                for key, _ in sel.select(timeout=0.25):
                    if key.fileobj is self._wake_r:
                        try:
                            self._wake_r.recv(4096)
                        except OSError:
                            pass
                        continue
                    conn = key.fileobj
                    assert isinstance(conn, socket.socket)
                    sel.unregister(conn)
                    address, _ = waiting.pop(conn)
                    self._answer(conn, address)
                while True:
                    try:
                        conn, address = self._arrived.get_nowait()
                    except queue.Empty:
                        break
                    if len(waiting) >= MAX_WAITING:  # the oldest silent one makes room
                        oldest = min(waiting, key=lambda c: waiting[c][1])
                        sel.unregister(oldest)
                        del waiting[oldest]
                        self.shutdown_request(oldest)
                    waiting[conn] = (address, time.monotonic())
                    sel.register(conn, selectors.EVENT_READ)
                limit = time.monotonic() - self.idle
                for conn in [c for c, (_, since) in waiting.items() if since < limit]:
                    sel.unregister(conn)
                    del waiting[conn]
                    self.shutdown_request(conn)
            for conn in waiting:
                self.shutdown_request(conn)

    def _answer(self, conn: socket.socket, address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            try:
                conn.settimeout(1.0)
                conn.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(conn)
            return

        def run() -> None:
            try:
                conn.settimeout(self.idle)
                self.finish_request(conn, address)
            except Exception:  # noqa: BLE001 - one broken connection never stops the server
                self.handle_error(conn, address)
            finally:
                self.shutdown_request(conn)
                self._slots.release()

        threading.Thread(target=run, daemon=True).start()

    def handle_error(self, request: Any, client_address: Any) -> None:
        return  # quiet: a browser that went away mid-answer is not news

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"

    def start(self, locale: str = "en") -> None:
        """Serve and watch in background threads (the first faces are drawn before it returns)."""
        self.preview.rebuild([locale])
        for target in (self.serve_forever, self._gate, lambda: watch(self.preview, self.stop)):
            t = threading.Thread(target=target, daemon=True)
            t.start()
            self._workers.append(t)

    def close(self) -> None:
        self.stop.set()
        self.shutdown()
        self.server_close()
        self._wake_r.close()
        self._wake_w.close()
        with self.preview.changed:
            self.preview.changed.notify_all()
        for t in self._workers:
            t.join(timeout=5)
