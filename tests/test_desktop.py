"""Desktop integration (issue 32): --install-desktop / --uninstall-desktop under $XDG_DATA_HOME."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from solvers.common import registry
from workbench import cli, desktop

ROOT = Path(__file__).resolve().parents[1]
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
FORMATS = {
    "flow": ".flow",
    "toichika": ".toichika",
    "ninetiles": ".town",
    "doves": ".doves",
    "xcetero": ".xo",
}


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    return tmp_path / "share"


def test_every_module_format_gets_a_mime_type_with_the_extension_the_dialogs_use() -> None:
    types = {kind: exts for kind, _, exts in desktop.file_types()}
    for kind, ext in FORMATS.items():
        assert ext in types[kind]
        assert f"*{ext}" in registry.metas()[kind].dialog_filter()  # the file dialogs name it too
    assert all(".txt" not in exts for exts in types.values())  # plain text stays with text editors


def test_mime_xml_parses_with_one_glob_per_format() -> None:
    root = ET.fromstring(desktop.mime_xml())
    found = {
        t.get("type"): [g.get("pattern") for g in t.findall(f"{MIME_NS}glob")]
        for t in root.findall(f"{MIME_NS}mime-type")
    }
    for kind, ext in FORMATS.items():
        assert found[desktop.mime_type(kind)] == [f"*{ext}"]


def test_install_writes_a_valid_entry_icons_and_types_and_uninstall_removes_them(data_home, capsys) -> None:
    assert cli.main(["--install-desktop"]) == 0
    assert "installed" in capsys.readouterr().out
    entry = data_home / "applications" / f"{desktop.APP_ID}.desktop"
    parsed = configparser.ConfigParser(interpolation=None, strict=True)
    parsed.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parsed.read_string(entry.read_text(encoding="utf-8"))
    section = parsed["Desktop Entry"]
    assert section["Type"] == "Application" and section["Icon"] == desktop.APP_ID
    assert section["Exec"].endswith(" %F")
    assert all(desktop.mime_type(k) in section["MimeType"].split(";") for k in FORMATS)
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        assert check.returncode == 0 and "error" not in check.stdout.lower(), check.stdout
    ET.parse(data_home / "mime" / "packages" / f"{desktop.APP_ID}.xml")
    ET.parse(data_home / "metainfo" / f"{desktop.APP_ID}.metainfo.xml")
    if shutil.which("update-mime-database"):  # the refreshed database knows the globs
        globs = (data_home / "mime" / "globs2").read_text(encoding="utf-8")
        assert f"{desktop.mime_type('flow')}:*.flow" in globs
    hicolor = data_home / "icons" / "hicolor"
    icons = [hicolor / "scalable" / "apps" / f"{desktop.APP_ID}.svg"]
    icons += [hicolor / "scalable" / "mimetypes" / f"application-x-puzzle-workbench-{k}.svg" for k in FORMATS]
    for side in desktop.PNG_SIZES:
        png = hicolor / f"{side}x{side}" / "apps" / f"{desktop.APP_ID}.png"
        image = QImage(str(png))
        assert image.width() == side and image.height() == side
        assert image.pixelColor(side // 2, side // 2).alpha() > 0  # something was drawn
        icons += [
            hicolor / f"{side}x{side}" / "mimetypes" / f"application-x-puzzle-workbench-{k}.png"
            for k in FORMATS
        ]
    assert all(p.is_file() for p in icons)
    # Something of the user's own beside our files survives the uninstall.
    mine = data_home / "applications" / "mine.desktop"
    mine.write_text("[Desktop Entry]\n")
    assert cli.main(["--uninstall-desktop"]) == 0
    assert not entry.exists() and not any(p.exists() for p in icons) and mine.exists()


@pytest.mark.skipif(not shutil.which("appstreamcli"), reason="appstreamcli not installed")
def test_metainfo_passes_appstream_validation(tmp_path) -> None:
    path = tmp_path / f"{desktop.APP_ID}.metainfo.xml"
    path.write_text(desktop.metainfo_xml(), encoding="utf-8")
    check = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--pedantic", str(path)], capture_output=True, text=True
    )
    assert check.returncode == 0 and "E:" not in check.stdout, check.stdout


def test_exec_quotes_a_path_with_spaces_and_reserved_characters() -> None:
    line = (
        desktop.desktop_entry(["/opt/My Apps/puzzle$bench", "-m", "work%bench"])
        .split("Exec=")[1]
        .split("\n")[0]
    )
    assert line == '"/opt/My Apps/puzzle\\\\$bench" -m work%%bench %F'


def test_unwritable_data_folder_is_one_line(tmp_path, monkeypatch, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    assert cli.main(["--install-desktop"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot install the desktop files" in err


def test_a_file_from_the_file_manager_opens_in_its_module(main_window, monkeypatch) -> None:
    """The entry's Exec passes the files (%F): the command line routes them to the GUI, which picks
    the module from the extension."""
    seen = {}
    monkeypatch.setattr("workbench.app.run_gui", lambda args: seen.setdefault("files", args.files) and 0)
    sample = ROOT / "assets" / "doves" / "samples" / "01-start.doves"
    cli.main([str(sample)])
    assert seen["files"] == [str(sample)]
    main_window.show_kind("flow")
    assert main_window.files.open_path(seen["files"][0])
    assert main_window.current().plugin.meta.id == "doves"


def test_install_desktop_in_a_fresh_process(tmp_path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "workbench", "--install-desktop"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "d"),
            "QT_QPA_PLATFORM": "offscreen",
        },
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "d" / "applications" / f"{desktop.APP_ID}.desktop").is_file()
