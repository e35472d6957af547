"""Qt widgets of Puzzle Workbench: the board canvas, palettes, solution browser, module panels."""
