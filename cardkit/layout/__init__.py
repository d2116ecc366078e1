"""Pure layout: units, fonts (metrics only), text fitting, card composition and
sheet imposition.  Produces lists of draw operations; never draws."""
