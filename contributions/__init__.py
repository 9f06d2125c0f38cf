"""Community contributions to the catalog: proposals, their review, and the catalog's history."""
