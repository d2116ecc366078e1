"""Print-shop output: presets for the services, one-card-per-page PDFs and per-card PNGs."""
