"""The simulator's pages (pages.py), with the results tables and charts they show."""
