"""Cut files for cutting machines and lasers (issue 22): every piece's trim outline as data
(shapes), the registration marks each print-and-cut machine reads (marks), DXF and SVG writers
(files), kerf compensation and a laser bed layout (laser)."""
