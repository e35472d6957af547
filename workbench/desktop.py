"""Desktop integration on Linux (freedesktop.org conventions), for the user only.

``puzzle-workbench --install-desktop`` writes under ``$XDG_DATA_HOME`` (default ``~/.local/share``):

- ``applications/APP_ID.desktop``: the menu entry; it opens files given to it (``%F``);
- ``metainfo/APP_ID.metainfo.xml``: the AppStream description software centres show;
- ``mime/packages/APP_ID.xml``: a MIME type per module file format (``*.flow``, ``*.toichika``, ...);
- ``icons/hicolor/{scalable,NxN}/{apps,mimetypes}/``: the application icon and one icon per file
  type, SVG plus PNG sizes drawn from the SVG;

then refreshes the MIME and desktop databases when their tools exist. ``--uninstall-desktop`` removes
exactly those files. The file types come from the modules' own extensions (``.txt`` is left to
text editors), so the menu entry and the file dialogs always agree.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from html import escape
from importlib import resources
from pathlib import Path

from solvers.common import registry
from workbench import __version__, user_paths

APP_ID = "local.puzzle_workbench.PuzzleWorkbench"  # reverse DNS of the Qt organisation domain
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256)
RELEASE_DATE = "2026-11-26"  # of __version__
SUMMARY = "Draw, solve, analyse and export pencil puzzles and small abstract games"


def icons_folder() -> Path:
    return Path(str(resources.files("assets") / "desktop" / "icons"))


def mime_type(kind: str) -> str:
    return f"application/x-puzzle-workbench-{kind}"


def file_types() -> list[tuple[str, str, list[str]]]:
    """(module id, its name, its extensions) for every module with an icon for its files."""
    rows = []
    for kind, meta in registry.metas().items():
        extensions = [e for e in meta.extensions if e != ".txt"]  # plain text stays text
        if extensions and (icons_folder() / f"{kind}.svg").is_file():
            rows.append((kind, meta.name, extensions))
    return rows


def launcher_command() -> list[str]:
    """How the menu entry starts the application: the bundle itself, else the installed script."""
    if getattr(sys, "frozen", False):
        return [sys.executable]
    script = shutil.which("puzzle-workbench")
    if script:
        return [str(Path(script).resolve())]
    return [sys.executable, "-m", "workbench"]


def _exec_quote(arg: str) -> str:
    """An argument of the Exec key (Desktop Entry specification, "The Exec key")."""
    if arg and not any(c in arg for c in " \t\n\"'\\><~|&;$*?#()`"):
        return arg
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    # The string-value escape applies on top: every backslash is written twice again.
    return '"' + escaped.replace("\\", "\\\\") + '"'


def desktop_entry(command: list[str]) -> str:
    exec_line = " ".join(_exec_quote(a) for a in command).replace("%", "%%") + " %F"
    types = "".join(f"{mime_type(kind)};" for kind, _, _ in file_types())
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Version=1.4\n"
        "Name=Puzzle Workbench\n"
        "GenericName=Puzzle Solver\n"
        f"Comment={SUMMARY}\n"
        f"Exec={exec_line}\n"
        f"Icon={APP_ID}\n"
        "Terminal=false\n"
        "Categories=Game;LogicGame;\n"
        "Keywords=puzzle;solver;Flow;Numberlink;Toichika;Nine Tiles Panic;Tokyo Doves;\n"
        f"MimeType={types}\n"
    )


def mime_xml() -> str:
    entries = []
    for kind, name, extensions in file_types():
        globs = "".join(f'\n    <glob pattern="*{escape(ext)}"/>' for ext in extensions)
        entries.append(
            f'  <mime-type type="{mime_type(kind)}">\n'
            f"    <comment>{escape(name)} puzzle</comment>\n"
            f'    <sub-class-of type="text/plain"/>\n'
            f'    <icon name="{mime_type(kind).replace("/", "-")}"/>{globs}\n'
            f"  </mime-type>\n"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">\n'
        + "".join(entries)
        + "</mime-info>\n"
    )


def metainfo_xml() -> str:
    modules = "".join(f"      <li>{escape(name)}</li>\n" for _, name, _ in file_types())
    types = "".join(f"    <mediatype>{mime_type(kind)}</mediatype>\n" for kind, _, _ in file_types())
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<component type="desktop-application">\n'
        f"  <id>{APP_ID}</id>\n"
        "  <metadata_license>CC0-1.0</metadata_license>\n"
        "  <project_license>MIT</project_license>\n"
        "  <name>Puzzle Workbench</name>\n"
        f"  <summary>{SUMMARY}</summary>\n"
        "  <description>\n"
        "    <p>Draw a puzzle or set up a position, press Solve, browse every solution or the full game\n"
        "    analysis visually, and export publication-quality diagrams (PNG, SVG, PDF).</p>\n"
        "    <p>Modules:</p>\n"
        f"    <ul>\n{modules}    </ul>\n"
        "  </description>\n"
        f'  <launchable type="desktop-id">{APP_ID}.desktop</launchable>\n'
        '  <developer id="local.puzzle_workbench"><name>The Puzzle Workbench developers</name></developer>\n'
        '  <content_rating type="oars-1.1"/>\n'
        f"  <provides>\n    <binary>puzzle-workbench</binary>\n{types}  </provides>\n"
        f'  <releases>\n    <release version="{__version__}" date="{RELEASE_DATE}"/>\n  </releases>\n'
        "</component>\n"
    )


def planned_files(data: Path) -> dict[Path, str]:
    """Every text file the installation writes (icons aside), by path."""
    return {
        data / "applications" / f"{APP_ID}.desktop": desktop_entry(launcher_command()),
        data / "metainfo" / f"{APP_ID}.metainfo.xml": metainfo_xml(),
        data / "mime" / "packages" / f"{APP_ID}.xml": mime_xml(),
    }


def icon_targets(data: Path) -> list[tuple[Path, str, int]]:
    """(target, source svg name, PNG side or 0 for the SVG itself) of every icon."""
    hicolor = data / "icons" / "hicolor"
    names = [("apps", APP_ID, "app.svg")]
    names += [("mimetypes", mime_type(kind).replace("/", "-"), f"{kind}.svg") for kind, _, _ in file_types()]
    rows = []
    for context, name, source in names:
        rows.append((hicolor / "scalable" / context / f"{name}.svg", source, 0))
        rows += [(hicolor / f"{n}x{n}" / context / f"{name}.png", source, n) for n in PNG_SIZES]
    return rows


def _render_png(svg: Path, side: int, target: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    from workbench.qt_app import ensure_app

    ensure_app(headless=True)
    image = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    if not image.save(str(target)):  # PNG, from the suffix
        raise OSError(f"{target}: could not write the icon")


def install(data: Path | None = None) -> list[Path]:
    """Write the desktop files; returns them. Raises OSError when a folder cannot be written."""
    data = data or user_paths.data_home()
    written = []
    for path, text in planned_files(data).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    for path, source, side in icon_targets(data):
        path.parent.mkdir(parents=True, exist_ok=True)
        if side:
            _render_png(icons_folder() / source, side, path)
        else:
            shutil.copyfile(icons_folder() / source, path)
        written.append(path)
    _refresh(data)
    return written


def uninstall(data: Path | None = None) -> list[Path]:
    """Remove what ``install`` wrote (nothing else); returns what was removed."""
    data = data or user_paths.data_home()
    removed = []
    for path in [*planned_files(data), *(t for t, _, _ in icon_targets(data))]:
        if path.is_file():
            path.unlink()
            removed.append(path)
    _refresh(data)
    return removed


def _refresh(data: Path) -> None:
    """The MIME and desktop caches (best effort: without the tools the files still work after login)."""
    for tool, folder in (
        ("update-mime-database", data / "mime"),
        ("update-desktop-database", data / "applications"),
    ):
        if shutil.which(tool) and folder.is_dir():
            subprocess.run([tool, str(folder)], capture_output=True, timeout=60, check=False)


def main(action: str) -> int:
    """``--install-desktop`` / ``--uninstall-desktop``: one line per outcome, exit 0 or 2."""
    data = user_paths.data_home()
    try:
        paths = install(data) if action == "install" else uninstall(data)
    except OSError as exc:
        print(f"puzzle-workbench: cannot {action} the desktop files in {data}: {exc}", file=sys.stderr)
        return 2
    verb = "installed" if action == "install" else "removed"
    print(f"{verb} {len(paths)} files under {data}")
    return 0
