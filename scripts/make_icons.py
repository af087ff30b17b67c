"""Draw the installable web app's icons (src/salad/web/static/icons/*.png) from the pages' own
logo (the salad bowl of their favicon), with Chromium: ``.venv/bin/python scripts/make_icons.py``.

The PNGs are committed; run this again only to change the drawing."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[1] / "src" / "salad" / "web" / "static" / "icons"
THEME = "#0c3b27"
BOWL = (
    "<path d='M6 30h52c0 14-11 26-26 26S6 44 6 30z' fill='#fff'/>"
    "<circle cx='22' cy='24' r='10' fill='#40c057'/>"
    "<circle cx='40' cy='22' r='9' fill='#e03131'/>"
    "<circle cx='32' cy='28' r='8' fill='#f76707'/>"
)


def svg(size: int, inset: float, rounded: bool) -> str:
    """The bowl on the theme's green, the bowl filling ``1 - 2 * inset`` of the square."""
    radius = size * 0.18 if rounded else 0
    inner = size * (1 - 2 * inset)
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{size}' height='{size}'>"
        f"<rect width='{size}' height='{size}' rx='{radius}' fill='{THEME}'/>"
        f"<svg x='{size * inset}' y='{size * inset}' width='{inner}' height='{inner}' "
        f"viewBox='0 0 64 64'>{BOWL}</svg></svg>"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        for name, size, inset, rounded in (
            ("icon-192.png", 192, 0.12, True),
            ("icon-512.png", 512, 0.12, True),
            ("icon-maskable-512.png", 512, 0.22, False),  # inside the safe circle (80%)
        ):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                f"<body style='margin:0;background:transparent'>{svg(size, inset, rounded)}</body>"
            )
            page.screenshot(path=str(OUT / name), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
