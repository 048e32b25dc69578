"""Each site's page, drawn on a `canvas.Painter`: one module per site, registered in `painter.SITE_PAGES`."""
