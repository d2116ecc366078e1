"""Deep Strike scenarios: table geometry, deployment feasibility and scoring."""
