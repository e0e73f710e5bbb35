"""Cut files for cutting machines and lasers (issue 22): the pieces' outlines as placed
(boardgen.geometry), the registration marks each print-and-cut machine reads (marks), DXF and SVG writers
(files), kerf compensation and a laser bed layout (laser)."""
