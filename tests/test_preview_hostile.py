"""The preview server against a hostile neighbour and a hostile project (#29):
300 silent sockets hold no thread and the page is still served beside them; a
silent socket is closed after the idle timeout; the watcher never follows a
symlinked folder out of the project (``art/library -> elsewhere``)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from cardkit.preview import MAX_REQUESTS, Preview, PreviewServer, watched_folders

FLOOD = 300


@pytest.fixture
def game(starter_game: Path) -> Path:
    return starter_game


@pytest.fixture
def server(game: Path):
    srv = PreviewServer(Preview(game, "g", dpi=36), poll=2, idle=2.0)
    srv.start()
    yield srv
    srv.close()


def _get(url: str, timeout: float = 10) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read()


def test_a_flood_of_silent_sockets_holds_no_thread_and_the_page_is_served(server: PreviewServer):
    host, port = server.server_address[:2]
    before = threading.active_count()
    socks: list[socket.socket] = []
    try:
        for _ in range(FLOOD):
            s = socket.create_connection((host, port), timeout=5)
            socks.append(s)
        time.sleep(0.5)  # every one accepted and waiting
        during = threading.active_count()
        assert during <= before + 2, (before, during)  # no thread per connection (one per request at most)
        started = time.monotonic()
        status, body = _get(server.url)
        assert status == 200 and b"cardkit preview" in body
        assert time.monotonic() - started < 5  # served beside the flood, not after it
        assert threading.active_count() <= before + MAX_REQUESTS
    finally:
        for s in socks:
            s.close()


def test_a_silent_socket_is_closed_after_the_idle_timeout(server: PreviewServer):
    s = socket.create_connection(server.server_address[:2], timeout=10)
    try:
        started = time.monotonic()
        assert s.recv(1) == b""  # the server closed it
        assert 1.5 <= time.monotonic() - started < 8
    finally:
        s.close()


def test_a_request_that_stalls_half_way_is_closed(server: PreviewServer):
    s = socket.create_connection(server.server_address[:2], timeout=10)
    try:
        s.sendall(b"GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n")  # and never the blank line
        started = time.monotonic()
        while s.recv(4096):
            pass
        assert time.monotonic() - started < 8
    finally:
        s.close()


def test_the_watcher_never_enters_a_symlinked_folder_out_of_the_project(game: Path, tmp_path: Path):
    outside = tmp_path / "library"
    (outside / "deep" / "deeper").mkdir(parents=True)
    link = game / "cards" / "g" / "art" / "library"
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(outside, link, target_is_directory=True)
    cards_link = tmp_path / "linked"
    try:
        folders = watched_folders(game)
        assert game / "cards" / "g" / "art" in folders
        assert not any(f == link or link in f.parents for f in folders)
        assert all(os.path.realpath(f).startswith(os.path.realpath(game) + os.sep) for f in folders)
        srv = PreviewServer(Preview(game, "g", dpi=36), poll=1)
        srv.start()
        try:
            time.sleep(1.5)  # the watch is up
            version = srv.preview.version
            (outside / "deep" / "deeper" / "new.png").write_bytes(b"x")
            (outside / "other.yaml").write_text("x: 1\n")
            time.sleep(2.0)
            assert srv.preview.version == version  # writes outside the project rebuild nothing
            heroes = game / "cards" / "g" / "heroes.yaml"
            heroes.write_text(heroes.read_text(encoding="utf-8"), encoding="utf-8")
            deadline = time.monotonic() + 15
            while srv.preview.version == version and time.monotonic() < deadline:
                time.sleep(0.1)
            assert srv.preview.version > version  # a save inside still does
        finally:
            srv.close()
        # a cards/ that is itself a link out of the project is not watched at all
        shutil.copytree(game, tmp_path / "second", symlinks=True)
        shutil.move(str(tmp_path / "second" / "cards"), cards_link)
        os.symlink(cards_link, tmp_path / "second" / "cards", target_is_directory=True)
        assert all("cards" not in f.parts for f in watched_folders(tmp_path / "second"))
    finally:
        link.unlink()
